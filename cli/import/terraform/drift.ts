import { Reference, Secret, type ProgramModel, type Resource, type Value } from "../model.js";

/**
 * Drift in Terraform's world: where the live object (read through the API) differs from what the
 * state holds. Both are written as the same program (the state's model, and the model of the
 * tenant as the API lists it, named alike), so the comparison is of the inputs a program would
 * set, in pulumi-cdc's terms. The program keeps the state's values: that is what the team declared.
 */

/** One input path and its two values, as short text. */
export interface Difference {
  path: string;
  state: string;
  live: string;
}

const isPlain = (v: unknown): v is Record<string, Value> => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Reference) && !(v instanceof Secret);

/** A value as text to compare and show: references by what they name, secrets by their config name, sets of strings sorted. */
function text(v: Value | undefined): string {
  // Unset: the program leaves it out (a connector setting at its default, too).
  if (v === undefined) return "(not set)";
  return JSON.stringify(v, (_k, x: unknown) => {
    if (x instanceof Reference) return "ident" in x.ref ? `<${x.ref.ident}>` : `<id ${x.ref.id}>`;
    if (x instanceof Secret) return `<secret ${x.name}>`;
    // The API lists tags and a tag's types in its own order: a set, not a list.
    if (Array.isArray(x) && x.every((i) => typeof i === "string")) return [...(x as string[])].sort();
    return x;
  });
}

/** Plain objects flattened into paths (`config › database.hostname.user.defined`), anything else a leaf. */
function leaves(inputs: Record<string, Value>, prefix = ""): Map<string, Value> {
  const out = new Map<string, Value>();
  for (const [k, v] of Object.entries(inputs)) {
    const path = prefix ? `${prefix} › ${k}` : k;
    if (isPlain(v)) for (const [p, x] of leaves(v, path)) out.set(p, x);
    else out.set(path, v);
  }
  return out;
}

const short = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}...` : s);

/** Where `live` differs from `state`, input by input; secrets are masked on both sides, so never compared. */
export function differences(state: Resource, live: Resource): Difference[] {
  const a = leaves(state.inputs);
  const b = leaves(live.inputs);
  const out: Difference[] = [];
  for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const [s, l] = [text(a.get(path)), text(b.get(path))];
    if (s !== l) out.push({ path, state: short(s), live: short(l) });
  }
  return out;
}

/**
 * The lines the import prints, by Terraform address: each adopted object the API does not list,
 * and each whose live inputs differ from the state's.
 */
export function driftLines(state: ProgramModel, live: ProgramModel, addressOf: (r: Resource) => string | undefined): string[] {
  const byKey = new Map(live.resources.map((r) => [`${r.kind}\0${r.id}`, r]));
  const lines: string[] = [];
  for (const r of state.resources) {
    const address = addressOf(r) ?? r.ident;
    const found = byKey.get(`${r.kind}\0${r.id}`);
    if (!found) {
      lines.push(`${address}: the API lists no such object (deleted outside Terraform?): \`pulumi up\` cannot adopt it; remove it from the program, or restore it`);
      continue;
    }
    const diffs = differences(r, found);
    if (diffs.length === 0) continue;
    lines.push(
      `${address}: the live object differs from the state in ${diffs.map((d) => `${d.path} (state ${d.state}, live ${d.live})`).join("; ")}. ` +
        "The program holds the state's values: `pulumi up` will write them",
    );
  }
  return lines;
}
