import { toWireConfig } from "../check.js";
import { SECRET_DIGESTS, TYPED_TYPES, type TypedKind, type TypedProperty } from "./kinds.js";

/**
 * A typed resource's properties (`cdc:sources:Postgresql`: `databasePort`, ...) and its generic
 * kind's (`connector: "postgresql"`, `config["database.port.user.defined"]`), both ways: the
 * protocol's names adapted to the core's, driven by the catalogue (provider/typed/kinds.ts). Nothing of
 * a kind's rules: the core checks, diffs and writes what it is given as for `cdc:index:Source`.
 */

type Props = Record<string, unknown>;

const isObject = (v: unknown): v is Props => typeof v === "object" && v !== null && !Array.isArray(v);

/** The object type of a map key's values (`{chunks}`), with its property → key names. */
function entryKeys(p: TypedProperty): Readonly<Record<string, string>> | undefined {
  const type = p.property.type;
  if (typeof type !== "object" || !("mapOf" in type)) return undefined;
  const inner = type.mapOf;
  if (typeof inner !== "object" || !("ref" in inner)) return undefined;
  const spec = TYPED_TYPES[inner.ref as keyof typeof TYPED_TYPES];
  return spec && "keys" in spec ? spec.keys : undefined;
}

function renameEntries(value: unknown, names: Readonly<Record<string, string>>): unknown {
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, entry]) => [k, isObject(entry) ? Object.fromEntries(Object.entries(entry).map(([f, v]) => [names[f] ?? f, v])) : entry]));
}

const invert = (names: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(names).map(([a, b]) => [b, a]));

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A map the platform takes as a JSON string (`json-string`), as its object again; any other value as it is. */
function decodeJsonMap(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const map = parseJson(value);
  if (!isObject(map)) return value;
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, typeof v === "string" && isObject(parseJson(v)) ? parseJson(v) : v]));
}

/**
 * Typed properties → the generic kind's: `connector` (or `transform`) from the token, `config`
 * from the typed properties in the platform's keys and wire form (as the core's check() writes
 * it, so the inputs and outputs a stack recorded compare as the generic kind's would), the
 * digests of secret values back under their keys, a carried key from its input (a transform's
 * `transforms.name` from its name). Every other property (name, tags, status, ..., the core's
 * own) as it is.
 */
export function toCoreProps(kind: TypedKind, props: Props): Props {
  const out: Props = {};
  const config: Props = {};
  const byName = new Map(kind.properties.map((p) => [p.name, p]));
  const digests = isObject(props[SECRET_DIGESTS]) ? props[SECRET_DIGESTS] : {};
  for (const [name, value] of Object.entries(props)) {
    if (name === SECRET_DIGESTS) continue;
    const p = byName.get(name);
    if (!p) {
      out[name] = value;
      continue;
    }
    const names = entryKeys(p);
    config[p.key] = names ? renameEntries(value, names) : value;
  }
  for (const [name, digest] of Object.entries(digests)) {
    const p = byName.get(name);
    if (p && !(p.key in config)) config[p.key] = digest;
  }
  // A carried key (a transform's `transforms.name`) holds its input's value, as the core's own inputs do.
  for (const [key, input] of Object.entries(kind.carried)) if (props[input] !== undefined && props[input] !== null) config[key] = props[input];
  out[kind.codeProperty] = kind.code;
  out.config = toWireConfig(kind.spec, config);
  return out;
}

/**
 * The generic kind's properties → typed ones: each config key of the catalogue as its typed
 * property (a JSON-string map as its object again), a carried key dropped (the input holds it),
 * `connector`/`transform` dropped (the token says it). For outputs, a secret value (a digest, or
 * the API's mask) goes under SECRET_DIGESTS instead: a secret property has no output. Keys the
 * catalogue does not know have no typed property and are left out; every other property as it is.
 */
export function fromCoreProps(kind: TypedKind, props: Props, role: "inputs" | "outputs"): Props {
  const out: Props = {};
  for (const [name, value] of Object.entries(props)) {
    if (name !== "config" && name !== kind.codeProperty) out[name] = value;
  }
  const config = isObject(props.config) ? props.config : {};
  const byKey = new Map(kind.properties.map((p) => [p.key, p]));
  const digests: Props = {};
  for (const [key, value] of Object.entries(config)) {
    const p = byKey.get(key);
    if (!p || value === null || value === undefined) continue;
    if (role === "outputs" && p.spec.secret) {
      digests[p.name] = value;
      continue;
    }
    const names = entryKeys(p);
    const decoded = p.spec.encoding === "json-string" ? decodeJsonMap(value) : value;
    out[p.name] = names ? renameEntries(decoded, invert(names)) : decoded;
  }
  if (Object.keys(digests).length > 0) out[SECRET_DIGESTS] = digests;
  return out;
}

/**
 * A property path of the generic kind as the typed resource's: `config["database.port.user.defined"]`
 * (or zod's `config.database.port.user.defined`) → `databasePort`, with what follows
 * (`config["k"]["x"]` → `name["x"]`); `config["transforms.name"]` → `name`. Others as they are.
 */
export function typedPath(kind: TypedKind, path: string): string {
  const byKey = new Map<string, string>([...kind.properties.map((p): [string, string] => [p.key, p.name]), ...Object.entries(kind.carried)]);
  const bracket = /^config\["((?:[^"\\]|\\.)*)"\](.*)$/.exec(path);
  if (bracket) {
    const name = byKey.get(bracket[1]!);
    return name ? `${name}${bracket[2]}` : path;
  }
  if (path.startsWith("config.")) {
    const rest = path.slice("config.".length);
    // Keys hold dots: the longest key the path starts with.
    const key = [...byKey.keys()].filter((k) => rest === k || rest.startsWith(`${k}.`) || rest.startsWith(`${k}[`)).sort((a, b) => b.length - a.length)[0];
    if (key) return `${byKey.get(key)}${rest.slice(key.length)}`;
  }
  return path;
}

/** A check failure of the generic kind as the typed resource's: the path in typed names, the reason without the config's vocabulary. */
export function typedFailure(kind: TypedKind, failure: { property: string; reason: string }): { property: string; reason: string } {
  const property = typedPath(kind, failure.property);
  if (property === failure.property) return failure;
  const reason = failure.reason
    .replace(/ \(helper property [A-Za-z0-9]+\)/, "")
    .replace(": add it to config", ": set it")
    .replace(": remove it from config", ": remove it");
  return { property, reason };
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = next;
    }
  }
  return row[b.length]!;
}

/**
 * Properties a typed resource's program set that it does not have, as check failures naming the
 * one most likely meant: the same name in another case, the property of a platform key used as a
 * name (`database.user` → `databaseUser`), or a near miss.
 */
export function unknownProperties(kind: TypedKind, props: Props, allowed: readonly string[]): Array<{ property: string; reason: string }> {
  const names = kind.inputs.map((p) => p.name);
  return Object.keys(props)
    .filter((name) => !names.includes(name) && !allowed.includes(name))
    .map((name) => {
      const closest = names.map((n) => [n, distance(n.toLowerCase(), name.toLowerCase())] as const).sort((a, b) => a[1] - b[1])[0];
      const meant =
        names.find((n) => n.toLowerCase() === name.toLowerCase()) ??
        kind.properties.find((p) => p.key === name || p.key === `${name}.user.defined`)?.name ??
        (closest && closest[1] <= Math.min(3, Math.floor(name.length / 4)) ? closest[0] : undefined);
      return { property: name, reason: `is not a property of ${kind.token}${meant ? `: did you mean "${meant}"?` : ""}` };
    });
}
