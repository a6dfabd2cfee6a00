import { createHash } from "node:crypto";

/**
 * Identifiers of the program `pulumi-cdc import` writes: a variable (and Pulumi resource name)
 * per object, and a config key per secret. They come from the objects' names, so they read like
 * a person's; they are valid (TypeScript identifiers, Pulumi names, YAML keys), unique, and
 * stable: an object's identifier depends on its own name, kind and id only, never on which
 * other objects the tenant holds, except that objects whose names give the same identifier
 * (two agents named alike, `orders-db` and `orders_db`) each carry a short hash of their id.
 */

/** Words of a name: runs of ASCII letters and digits (accents stripped; anything else separates). */
function words(text: string): string[] {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "");
}

/** lowerCamelCase of a name's words: `orders-db.prod` → `ordersDbProd`, `ORDERS` → `orders`. */
export function camelCase(text: string): string {
  return words(text)
    .map((w, i) => {
      // A word all in capitals reads as a word, not as letters: `ORDERS_DB` → `ordersDb`.
      const lower = /^[A-Z0-9]+$/.test(w) ? w.toLowerCase() : w;
      return i === 0 ? lower[0]!.toLowerCase() + lower.slice(1) : lower[0]!.toUpperCase() + lower.slice(1);
    })
    .join("");
}

/** UpperCamelCase: `database.password` → `DatabasePassword`. */
export function pascalCase(text: string): string {
  const camel = camelCase(text);
  return camel === "" ? "" : camel[0]!.toUpperCase() + camel.slice(1);
}

/** Six hex characters of a digest of the id: what sets apart objects whose names give the same identifier. */
export function idHash(id: string): string {
  return createHash("sha256").update(id, "utf8").digest("hex").slice(0, 6);
}

/** Words TypeScript reserves (or that would shadow what the program itself uses). */
const RESERVED = new Set([
  "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else", "enum", "export", "extends",
  "false", "finally", "for", "function", "if", "import", "in", "instanceof", "new", "null", "return", "super", "switch", "this", "throw",
  "true", "try", "typeof", "var", "void", "while", "with", "as", "implements", "interface", "let", "package", "private", "protected",
  "public", "static", "yield", "await", "async", "of", "any", "boolean", "number", "string", "symbol", "type", "undefined",
  "pulumi", "config", "require", "module", "exports",
]);

/**
 * The base identifier of an object: its name in camelCase and the kind's suffix (`orders` →
 * `ordersSource`, `pii` → `piiTag`). A name with no letters or digits, or one starting with a
 * digit, is prefixed with the kind (`2024` → `tag2024`).
 */
export function baseIdentifier(name: string, suffix: string): string {
  const camel = camelCase(name);
  const lowerKind = suffix[0]!.toLowerCase() + suffix.slice(1);
  if (camel === "") return lowerKind;
  if (/^[0-9]/.test(camel)) return `${lowerKind}${camel}`;
  return `${camel}${suffix}`;
}

export interface Nameable {
  /** The object's id in the API: unique per kind. */
  id: string;
  name: string;
  /** `Source`, `Tag`, `HttpConnection`, ...: the identifier's suffix. */
  suffix: string;
}

/**
 * Unique, stable identifiers for all objects at once, keyed by `suffix\0id`. An identifier
 * several objects would share, or one that is reserved or `taken` (the program's imports), is
 * given to none of them as it is: each gets `_<hash of its id>` appended.
 */
export function assignIdentifiers(objects: readonly Nameable[], taken: ReadonlySet<string> = new Set()): Map<string, string> {
  const base = new Map<string, string>();
  const count = new Map<string, number>();
  for (const o of objects) {
    const b = baseIdentifier(o.name, o.suffix);
    base.set(`${o.suffix}\0${o.id}`, b);
    count.set(b, (count.get(b) ?? 0) + 1);
  }
  const out = new Map<string, string>();
  const used = new Set<string>();
  for (const o of objects) {
    const key = `${o.suffix}\0${o.id}`;
    const b = base.get(key)!;
    let ident = count.get(b)! > 1 || RESERVED.has(b) || taken.has(b) ? `${b}_${idHash(o.id)}` : b;
    // Two ids whose hashes begin alike (one in sixteen million): numbered, in the given order.
    for (let i = 2; used.has(ident); i++) ident = `${b}_${idHash(o.id)}_${i}`;
    used.add(ident);
    out.set(key, ident);
  }
  return out;
}

/**
 * The config key of a secret of one resource: its identifier and the setting's name
 * (`ordersSource` + `databasePassword` → `ordersSourceDatabasePassword`). Unique per resource
 * by construction of `used`.
 */
export function secretConfigName(ident: string, setting: string, used: Set<string>): string {
  const tail = pascalCase(setting) || "Secret";
  let name = `${ident}${tail}`;
  for (let i = 2; used.has(name); i++) name = `${ident}${tail}${i}`;
  used.add(name);
  return name;
}

/** A glob of `--name`: `*` any run of characters, `?` one; everything else literal, case-sensitive. */
export function globToRegExp(glob: string): RegExp {
  const body = [...glob].map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("");
  return new RegExp(`^${body}$`, "s");
}
