import { structproto } from "./proto.js";

/**
 * Property values across the engine's protocol. Secrets arrive wrapped as objects carrying the
 * special signature key; the core sees plain values, and the paths that were secret are
 * remembered so the same paths are wrapped again on the way out. Unknowns (preview) pass as the
 * engine's sentinel string, which the core already recognises.
 */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type Path = readonly (string | number)[];

/** Paths as text, so sets of them compare by value. */
export class PathSet {
  readonly #paths = new Map<string, Path>();
  add(path: Path): void {
    this.#paths.set(JSON.stringify(path), path);
  }
  has(path: Path): boolean {
    return this.#paths.has(JSON.stringify(path));
  }
  get size(): number {
    return this.#paths.size;
  }
  [Symbol.iterator](): IterableIterator<Path> {
    return this.#paths.values();
  }
}

function isSecretWrapper(value: unknown): value is { value?: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value) && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** The plain value and every path at which a secret was unwrapped. */
export function unwrapSecrets(value: unknown, secrets = new PathSet(), path: Path = []): { value: unknown; secrets: PathSet } {
  const walk = (v: unknown, at: Path): unknown => {
    if (isSecretWrapper(v)) {
      secrets.add(at);
      return walk(v.value, at);
    }
    if (Array.isArray(v)) return v.map((item, i) => walk(item, [...at, i]));
    if (v && typeof v === "object") {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) out[k] = walk(item, [...at, k]);
      return out;
    }
    return v;
  };
  return { value: walk(value, path), secrets };
}

export function secret(value: unknown): Record<string, unknown> {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/** `value` with the values at `paths` wrapped as secrets (paths that are absent are skipped). */
export function wrapSecrets<T>(value: T, paths: Iterable<Path>): T {
  let out: unknown = value;
  for (const path of paths) out = wrapAt(out, path);
  return out as T;
}

function wrapAt(value: unknown, path: Path): unknown {
  if (path.length === 0) return value === undefined || isSecretWrapper(value) ? value : secret(value);
  if (isSecretWrapper(value)) return value;
  const [head, ...rest] = path;
  if (Array.isArray(value) && typeof head === "number" && head < value.length) {
    const copy = [...value];
    copy[head] = wrapAt(copy[head], rest);
    return copy;
  }
  if (value && typeof value === "object" && !Array.isArray(value) && typeof head === "string" && head in value) {
    return { ...(value as Record<string, unknown>), [head]: wrapAt((value as Record<string, unknown>)[head], rest) };
  }
  return value;
}

/** A protobuf Struct as plain JavaScript (secrets still wrapped). */
export function fromStruct(struct: { toJavaScript(): Record<string, unknown> } | undefined | null): Record<string, unknown> {
  return struct ? struct.toJavaScript() : {};
}

/** Plain JavaScript as a protobuf Struct: undefined properties are left out, as JSON leaves them. */
export function toStruct(value: Record<string, unknown>): unknown {
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value ?? {})));
}
