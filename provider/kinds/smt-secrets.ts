import { findSmtType } from "../../catalogue/smt.js";
import type { Path } from "./spec.js";

/** The paths of a chain's secret fields (`transforms[i].maskSalt`), as the SMT catalogue marks them, wherever an entry sets one. */
export function smtSecretPaths(props: Record<string, unknown>): Path[] {
  const transforms = Array.isArray(props.transforms) ? (props.transforms as unknown[]) : [];
  const paths: Path[] = [];
  transforms.forEach((entry, i) => {
    if (!entry || typeof entry !== "object") return;
    const e = entry as Record<string, unknown>;
    const type = typeof e.type === "string" ? findSmtType(e.type) : undefined;
    for (const field of type?.fields ?? []) if (field.secret && field.name in e) paths.push(["transforms", i, field.name]);
  });
  return paths;
}
