import { randomBytes } from "node:crypto";

export interface NamedInputs {
  /** The logical Pulumi resource name, the base of an autoname. */
  __name?: string;
  name?: string;
  __autonamed?: boolean;
}

/**
 * Autonaming as Pulumi users expect it: an explicit name is used as is; an unset name becomes
 * `<logical name>-<random suffix>`, kept stable across runs and renewed only on replacement
 * (so the replacement can be created before the original is deleted).
 */
export function resolveName(olds: NamedInputs, news: NamedInputs, replacing: boolean): { name: string; __autonamed: boolean } {
  if (typeof news.name === "string" && news.name !== "") return { name: news.name, __autonamed: false };
  if (olds.__autonamed && typeof olds.name === "string" && olds.__name === news.__name && !replacing) {
    return { name: olds.name, __autonamed: true };
  }
  const base = (news.__name ?? "cdc").replace(/[^A-Za-z0-9 _.-]/g, "-").slice(0, 240);
  return { name: `${base}-${randomBytes(4).toString("hex")}`, __autonamed: true };
}
