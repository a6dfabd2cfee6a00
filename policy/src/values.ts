import { createRequire } from "node:module";
import { target } from "./proxy.js";

/**
 * Reading our resources' properties as the analyzer hands them: the raw object behind
 * @pulumi/policy's proxy (which throws on an unknown value), unknowns told apart by the engine's
 * sentinels, which @pulumi/policy's proxy.js lists.
 */
const proxy = createRequire(require.resolve("@pulumi/policy"))("./proxy.js") as Record<string, unknown>;
const UNKNOWNS = new Set(Object.entries(proxy).filter(([k, v]) => /^unknown[A-Z]\w*Value$/.test(k) && typeof v === "string").map(([, v]) => v as string));

export type Props = Record<string, unknown>;

export function raw(props: object): Props {
  return target(props) as Props;
}

/** Whether a value is known at this point (a preview leaves the outputs of resources yet to be made unknown). */
export function known(value: unknown): boolean {
  if (typeof value === "string") return !UNKNOWNS.has(value);
  if (Array.isArray(value)) return value.every(known);
  if (value && typeof value === "object") return Object.values(value).every(known);
  return true;
}

/** The value at a path, undefined when absent. */
export function at(props: Props, path: readonly (string | number)[]): unknown {
  let v: unknown = props;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v;
}

/** The stack's name, from a resource's URN (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
export function stackOf(urn: string): string {
  return urn.split("::")[0]?.replace(/^urn:pulumi:/, "") ?? "";
}

/** Whether a name matches a glob of `*` (any run of characters) and `?` (one character). */
export function globMatch(glob: string, name: string): boolean {
  const re = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${re}$`).test(name);
}
