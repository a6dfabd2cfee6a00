import { findSmtType, secretPointer, SMT_TYPE_IDS, type SmtField, type SmtType } from "../../catalogue/smt.js";
import type { CheckFailure } from "../check.js";
import { canonicalJson, isUnknown, MASK } from "../normalize.js";
import { sameSecret, secretDigest } from "../secret-digest.js";
import type { InstanceWrite, LiveChain, LiveInstance, SecretOperation, TypedInstance } from "./api.js";

/**
 * A chain entry as a program writes it: the catalogue type, a name, `enabled`, and the type's
 * fields by their lowerCamelCase names (`fieldsInclude`, `maskSalt`). Checked, every field the
 * program left out holds the catalogue's default, so it compares with what the API reads back.
 */
export type SmtEntry = { type: string; name: string; enabled: boolean } & Record<string, unknown>;

const ENTRY_KEYS = ["type", "name", "enabled"];

// Never String() of an object: a program's map may hold its own `toString` key, and then String() throws.
const describe = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : Array.isArray(v) ? `[${v.map(describe).join(", ")}]` : v !== null && typeof v === "object" ? "a map" : String(v));
const at = (i: number, name?: string) => `transforms[${i}]${name ? `.${name}` : ""}`;
const fieldList = (type: SmtType) => type.fields.map((f) => f.name).join(", ");

/** Which types take a field of this name, for a field set on an entry of another type. */
function typesTaking(name: string): string[] {
  return SMT_TYPE_IDS.filter((id) => findSmtType(id)!.fields.some((f) => f.name === name));
}

function fieldProblem(field: SmtField, value: unknown): string | undefined {
  if (field.type === "boolean") return typeof value === "boolean" ? undefined : `must be true or false, got ${describe(value)}`;
  if (field.type === "array") {
    if (!Array.isArray(value)) return `must be a list of strings, got ${describe(value)}`;
    if (field.required && value.length === 0) return "needs at least one entry";
    const pattern = field.itemPattern ? new RegExp(field.itemPattern) : undefined;
    for (const [i, item] of value.entries()) {
      if (isUnknown(item)) continue;
      if (typeof item !== "string") return `[${i}] must be a string, got ${describe(item)}`;
      if (item === "") return `[${i}] must not be empty`;
      // The platform joins the list with commas for the connector: a comma would split an entry.
      if (pattern && !pattern.test(item)) return `[${i}] ${describe(item)} must not hold a comma: give each field as its own entry`;
    }
    return undefined;
  }
  if (typeof value !== "string") return `must be a string, got ${describe(value)}`;
  if (field.enum && !field.enum.includes(value)) {
    const same = field.enum.find((v) => v.toLowerCase() === value.toLowerCase());
    return `must be one of ${field.enum.join(", ")}; got ${describe(value)}${same ? `: did you mean ${same}?` : ""}`;
  }
  if (field.required && value.trim() === "") return "must not be empty";
  // A regex is Java's (the connector's), which JavaScript cannot judge: the API does.
  return undefined;
}

export const TRANSFORMS_REQUIRED = `is required: a list of transforms, each {type, name, ...} with type one of ${SMT_TYPE_IDS.join(", ")}; [] for none`;

/**
 * Checks a program's entries against the SMT catalogue, before any API call, and fills in each
 * field's default: every failure names the entry's path and field and says the fix.
 */
export function checkEntries(raw: unknown): { entries: SmtEntry[]; failures: CheckFailure[] } {
  const failures: CheckFailure[] = [];
  if (!Array.isArray(raw)) {
    return { entries: [], failures: [{ property: "transforms", reason: TRANSFORMS_REQUIRED }] };
  }
  const entries: SmtEntry[] = [];
  const names = new Map<string, number>();
  raw.forEach((item, i) => {
    if (isUnknown(item)) {
      entries.push(item as SmtEntry);
      return;
    }
    if (!item || typeof item !== "object" || Array.isArray(item)) {
      failures.push({ property: at(i), reason: `must be an object {type, name, ...}, got ${describe(item)}` });
      return;
    }
    const entry = item as Record<string, unknown>;
    const typeId = entry.type;
    const type = typeof typeId === "string" ? findSmtType(typeId) : undefined;
    if (isUnknown(typeId)) {
      entries.push({ ...entry } as SmtEntry);
      return;
    }
    if (!type) {
      failures.push({ property: at(i, "type"), reason: `must be one of ${SMT_TYPE_IDS.join(", ")} (the SMT catalogue); got ${describe(typeId)}` });
      return;
    }
    const name = entry.name;
    if (!isUnknown(name)) {
      if (typeof name !== "string" || name.trim() === "") failures.push({ property: at(i, "name"), reason: "is required: a name for the transform, unique in the chain" });
      else if (names.has(name)) failures.push({ property: at(i, "name"), reason: `"${name}" is also the name of transforms[${names.get(name)}]: names are unique in a chain, as Pulumi tells entries apart by them` });
      else names.set(name, i);
    }
    const enabled = entry.enabled ?? true;
    if (!isUnknown(enabled) && typeof enabled !== "boolean") failures.push({ property: at(i, "enabled"), reason: `must be true or false, got ${describe(enabled)}` });
    const checked: SmtEntry = { type: type.typeId, name: name as string, enabled: enabled as boolean };
    // Fields given with a problem: already said, not "required" again.
    const refused = new Set<string>();
    for (const [key, value] of Object.entries(entry)) {
      if (ENTRY_KEYS.includes(key) || value === undefined || value === null) continue;
      const field = type.fields.find((f) => f.name === key);
      if (!field) {
        const others = typesTaking(key);
        failures.push({
          property: at(i, key),
          reason: `is not a field of ${type.typeId} (it takes ${fieldList(type)})${others.length > 0 ? `; ${others.join(" and ")} take${others.length === 1 ? "s" : ""} it` : ""}: remove it`,
        });
        continue;
      }
      if (isUnknown(value)) {
        checked[key] = value;
        continue;
      }
      // The empty secret is the catalogue's default: no secret.
      if (field.secret && value === "") continue;
      const problem = fieldProblem(field, value);
      if (problem) {
        failures.push({ property: at(i, key), reason: problem });
        refused.add(key);
      } else checked[key] = value;
    }
    for (const field of type.fields) {
      if (field.name in checked || refused.has(field.name)) continue;
      if (field.required) failures.push({ property: at(i, field.name), reason: `is required by ${type.typeId}: ${field.title.toLowerCase()}${field.type === "array" ? ", a list" : ""}` });
      else if (!field.secret && field.default !== undefined) checked[field.name] = field.default;
      else if (!field.secret && field.type === "array") checked[field.name] = [];
    }
    entries.push(checked);
  });
  return { entries, failures };
}

/** The entry's config on the wire: the API's keys, secrets left out (they travel as secret operations). */
export function wireConfig(type: SmtType, entry: SmtEntry): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const field of type.fields) if (!field.secret && entry[field.name] !== undefined) config[field.key] = entry[field.name];
  return config;
}

/** A typed instance as a program's entry (defaults as the API materialized them; no secret). */
export function entryOf(instance: TypedInstance): SmtEntry {
  const type = findSmtType(instance.type);
  const entry: SmtEntry = { type: instance.type, name: instance.name, enabled: instance.enabled };
  for (const [key, value] of Object.entries(instance.config)) {
    const field = type?.fields.find((f) => f.key === key);
    entry[field?.name ?? key] = value;
  }
  return entry;
}

/** An entry without its secret fields: what outputs keep. */
export function withoutSecrets(entry: SmtEntry): SmtEntry {
  const type = findSmtType(entry.type);
  if (!type) return entry;
  const out = { ...entry };
  for (const f of type.fields) if (f.secret) delete out[f.name];
  return out;
}

/** An entry as a program writes it (`pulumi import`): defaults and `enabled: true` left out; a configured secret as the mask. */
export function entryAsProgram(instance: TypedInstance): SmtEntry {
  const type = findSmtType(instance.type)!;
  const full = entryOf(instance);
  const out: SmtEntry = { type: full.type, name: full.name, ...(full.enabled ? {} : { enabled: false }) } as SmtEntry;
  for (const field of type.fields) {
    if (field.secret) {
      if (instance.configured_secret_paths.includes(secretPointer(field))) out[field.name] = MASK;
      continue;
    }
    const value = full[field.name];
    if (value === undefined) continue;
    const isDefault = field.default !== undefined ? canonicalJson(value) === canonicalJson(field.default) : Array.isArray(value) && value.length === 0 && !field.required;
    if (!isDefault) out[field.name] = value;
  }
  return out;
}

/** An instance as a full entry (defaults materialized), each secret it holds as the mask: what a refresh realigns the inputs to. */
export function withHeldSecrets(instance: TypedInstance): SmtEntry {
  const entry = entryOf(instance);
  for (const field of findSmtType(instance.type)?.fields.filter((f) => f.secret) ?? []) {
    if (instance.configured_secret_paths.includes(secretPointer(field))) entry[field.name] = MASK;
  }
  return entry;
}

/** Why Pulumi cannot manage an instance (opaque to the catalogue, or with a predicate); undefined when it can. */
export function unmanageable(instance: LiveInstance): string | undefined {
  if (instance.kind === "opaque") return `"${instance.name}" (${instance.alias}) is opaque to the platform's catalogue: ${instance.reason}`;
  if (!findSmtType(instance.type)) return `"${instance.name}" is of type ${instance.type}, which the SMT catalogue pulumi-cdc pins does not know`;
  if (instance.predicate !== null && instance.predicate !== undefined) return `"${instance.name}" (${instance.alias}) carries a predicate, which pulumi-cdc does not manage`;
  return undefined;
}

/** The recorded secrets of a chain: per entry name and field, a keyed digest of the value Pulumi sent. */
export type SecretDigests = Record<string, Record<string, string>>;

/** What a write needs to know of the chain it replaces: each instance by entry name, with its id and the secrets it holds. */
export interface Prior {
  id: string;
  type: string;
  configured: readonly string[];
}

export function priorsOf(chain: LiveChain): Map<string, Prior> {
  const out = new Map<string, Prior>();
  for (const t of chain.transforms) if (t.kind !== "opaque") out.set(t.name, { id: t.id, type: t.type, configured: t.configured_secret_paths });
  return out;
}

/**
 * The PUT's transforms: each entry with the id of the instance of the same name and type (so
 * the platform keeps its identity and its secrets), its config, and the secret operations the
 * change needs: a salt is sent when it is new or changed (by its digest), cleared when the
 * program dropped it, and nothing when it is as recorded or the program holds the mask (keep).
 */
export function buildWrites(entries: readonly SmtEntry[], priors: ReadonlyMap<string, Prior>, recorded: { salt?: string; digests?: SecretDigests }): InstanceWrite[] {
  return entries.map((entry, i) => {
    const type = findSmtType(entry.type)!;
    const prior = priors.get(entry.name);
    const same = prior && prior.type === entry.type ? prior : undefined;
    const ops: SecretOperation[] = [];
    for (const field of type.fields.filter((f) => f.secret)) {
      const pointer = secretPointer(field);
      const value = entry[field.name];
      const held = same?.configured.includes(pointer) ?? false;
      if (value === MASK) {
        if (!held) {
          throw new Error(
            `${at(i, field.name)}: "${MASK}" is the placeholder \`pulumi import\` writes for a secret the platform holds, but transform "${entry.name}" has none to keep: set the real ${field.title.toLowerCase()} (e.g. config.requireSecret(...)) or remove it`,
          );
        }
        continue;
      }
      if (typeof value === "string" && value !== "") {
        const digest = recorded.digests?.[entry.name]?.[field.name];
        if (!(held && sameSecret(recorded.salt, digest, value))) ops.push({ pointer, operation: "replace", value });
      } else if (held) {
        ops.push({ pointer, operation: "clear" });
      }
    }
    return {
      ...(same ? { id: same.id } : {}),
      type: entry.type,
      name: entry.name,
      enabled: entry.enabled,
      config: wireConfig(type, entry),
      ...(ops.length > 0 ? { secret_operations: ops } : {}),
    };
  });
}

/** The digests outputs keep of the secrets the program holds (the mask keeps the recorded one). */
export function digestsOf(entries: readonly SmtEntry[], salt: string, recorded: SecretDigests | undefined): SecretDigests {
  const out: SecretDigests = {};
  for (const entry of entries) {
    const type = findSmtType(entry.type);
    for (const field of type?.fields.filter((f) => f.secret) ?? []) {
      const value = entry[field.name];
      // The mask stands for the secret the platform holds: the recorded digest, or (an import, an adoption) the mask's own.
      const digest =
        value === MASK ? (recorded?.[entry.name]?.[field.name] ?? secretDigest(salt, MASK)) : typeof value === "string" && value !== "" ? secretDigest(salt, value) : undefined;
      if (digest) (out[entry.name] ??= {})[field.name] = digest;
    }
  }
  return out;
}

/** One difference between two chains: the property path it touches and a sentence. */
export interface Finding {
  path: string;
  text: string;
}

/**
 * How chain `b` differs from chain `a`, entry by entry in order and field by field (secrets
 * aside): the one comparison behind the program-against-stack diff, the live-against-stack
 * drift and `pulumi-cdc drift`.
 */
export function compareEntries(a: readonly SmtEntry[], b: readonly SmtEntry[], verb = "is"): Finding[] {
  const findings: Finding[] = [];
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (!x) {
      findings.push({ path: at(i), text: `${at(i)} ${verb} an added ${y!.type} "${y!.name}"` });
      continue;
    }
    if (!y) {
      findings.push({ path: at(i), text: `${at(i)} (${x.type} "${x.name}") ${verb === "is" ? "is removed" : "was removed"}` });
      continue;
    }
    if (x.type !== y.type) {
      findings.push({ path: at(i, "type"), text: `${at(i)} ${verb === "is" ? "becomes" : "was changed to"} ${y.type} "${y.name}" (was ${x.type} "${x.name}")` });
      continue;
    }
    const type = findSmtType(x.type);
    const secret = new Set(type?.fields.filter((f) => f.secret).map((f) => f.name));
    for (const key of [...new Set([...Object.keys(x), ...Object.keys(y)])]) {
      if (key === "type" || secret.has(key)) continue;
      if (isUnknown(y[key])) {
        findings.push({ path: at(i, key), text: `${at(i, key)} is not known until \`pulumi up\`` });
        continue;
      }
      if (canonicalJson(x[key] ?? null) !== canonicalJson(y[key] ?? null)) {
        findings.push({ path: at(i, key), text: `${at(i, key)} of "${x.name}" ${verb === "is" ? "changes" : "was changed"} from ${describe(x[key])} to ${describe(y[key])}` });
      }
    }
  }
  return findings;
}

/**
 * Secrets the platform holds against those Pulumi recorded, by presence (values are write-only
 * and never read back): a salt cleared or set outside Pulumi is drift; one replaced by another
 * value cannot be seen.
 */
export function secretPresenceFindings(recorded: readonly SmtEntry[], digests: SecretDigests | undefined, live: LiveChain): Finding[] {
  const findings: Finding[] = [];
  recorded.forEach((entry, i) => {
    const instance = live.transforms[i];
    if (!instance || instance.kind === "opaque" || instance.type !== entry.type || instance.name !== entry.name) return;
    for (const field of findSmtType(entry.type)?.fields.filter((f) => f.secret) ?? []) {
      const has = instance.configured_secret_paths.includes(secretPointer(field));
      const had = Boolean(digests?.[entry.name]?.[field.name]);
      if (had && !has) findings.push({ path: at(i, field.name), text: `${at(i, field.name)} of "${entry.name}" was cleared` });
      if (!had && has) findings.push({ path: at(i, field.name), text: `${at(i, field.name)} of "${entry.name}" was set outside Pulumi` });
    }
  });
  return findings;
}

/** The live chain's entries in program form, and why any instance cannot be managed. */
export function liveEntries(chain: LiveChain): { entries: SmtEntry[]; unmanaged: string[] } {
  const unmanaged = chain.transforms.map(unmanageable).filter((x): x is string => x !== undefined);
  const entries = chain.transforms.filter((t): t is TypedInstance => t.kind !== "opaque").map(entryOf);
  return { entries, unmanaged };
}
