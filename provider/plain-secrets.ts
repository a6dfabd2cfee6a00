import type { Path } from "./kinds/spec.js";
import { isUnknown } from "./normalize.js";

/**
 * The names of a resource's secret settings that its program gave as plain values. Both hosts make
 * such a setting a Pulumi secret before anything else sees it (state holds it encrypted), so by the
 * time the engine hands a resource's checked inputs to a policy pack nothing tells a literal from
 * `config.requireSecret(...)`. Each host records, under this input, the names (never the values)
 * of the secret settings that reached it plain: the plugin from the wire, where each input arrives
 * secret or not; the TypeScript classes before they wrap (sdk/inputs.ts). The policy pack reads it
 * (policy/, `cdc-no-plain-secrets`).
 *
 * Absent when there are none, so a program that passes every secret as a secret has the same
 * inputs as before. It is the hosts' own: carried through Check into the checked inputs and taken
 * out before anything else of the core sees them (diff, create, update), so it never makes a diff
 * and never reaches the API.
 */
export const PLAIN_SECRETS = "plainSecretInputs";

/** How a message names a property path: `config["database.password"]`, `databasePassword`. */
export function pathText(path: Path): string {
  return path.map((p, i) => (i === 0 ? String(p) : /^[A-Za-z_][A-Za-z0-9_]*$/.test(String(p)) ? `.${p}` : `[${JSON.stringify(p)}]`)).join("");
}

/** Of the paths that must hold secrets, the ones whose values arrived plain (no secret at them or above them); unknown values are left out. */
export function plainSecretPaths(value: Record<string, unknown>, mustBeSecret: Iterable<Path>, arrivedSecret: Iterable<Path>): string[] {
  const secret = new Set([...arrivedSecret].map((p) => JSON.stringify(p)));
  const covered = (path: Path) => path.some((_, i) => secret.has(JSON.stringify(path.slice(0, i + 1))));
  const at = (path: Path) => path.reduce<unknown>((v, p) => (v && typeof v === "object" ? (v as Record<string, unknown>)[p as string] : undefined), value);
  const out = new Set<string>();
  for (const path of mustBeSecret) {
    const v = at(path);
    if (v === undefined || v === null || isUnknown(v) || covered(path)) continue;
    out.add(pathText(path));
  }
  return [...out].sort();
}

/** Props without the hosts' record. */
export function withoutPlainSecrets<T extends Record<string, unknown>>(props: T): T {
  if (!props || typeof props !== "object" || !(PLAIN_SECRETS in props)) return props;
  const { [PLAIN_SECRETS]: _ignored, ...rest } = props;
  return rest as T;
}

interface Operations {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ inputs: Record<string, unknown>; failures: unknown[] }>;
  diff(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<unknown>;
  create(inputs: Record<string, unknown>): Promise<unknown>;
  update(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): Promise<unknown>;
  read(id: string, props: Record<string, unknown>): Promise<unknown>;
  delete(id: string, props: Record<string, unknown>): Promise<unknown>;
}

/** A core provider that carries the hosts' record through check and keeps it from every other operation. */
export function carryingPlainSecrets<P extends Operations>(core: P): P {
  // Each operation delegated by name: a core provider is a class instance, its methods on the prototype.
  return {
    async check(olds: Record<string, unknown>, news: Record<string, unknown>) {
      const list = news?.[PLAIN_SECRETS];
      const checked = await core.check(withoutPlainSecrets(olds), withoutPlainSecrets(news));
      return Array.isArray(list) && list.length > 0 ? { ...checked, inputs: { ...checked.inputs, [PLAIN_SECRETS]: list } } : checked;
    },
    diff: (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => core.diff(id, withoutPlainSecrets(olds), withoutPlainSecrets(news)),
    create: (inputs: Record<string, unknown>) => core.create(withoutPlainSecrets(inputs)),
    update: (id: string, olds: Record<string, unknown>, news: Record<string, unknown>) => core.update(id, withoutPlainSecrets(olds), withoutPlainSecrets(news)),
    read: (id: string, props: Record<string, unknown>) => core.read(id, withoutPlainSecrets(props)),
    delete: (id: string, props: Record<string, unknown>) => core.delete(id, withoutPlainSecrets(props)),
  } as Operations as P;
}
