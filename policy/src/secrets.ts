import { createRequire } from "node:module";
import type { Path } from "pulumi-cdc/policy-support";

/**
 * Which of a resource's properties the engine sent as secrets. @pulumi/policy (1.21.0, pinned)
 * gives a policy the properties with every secret unwrapped (deserialize.js: `proxySecrets` is
 * false for analyze and analyzeStack), so a secret and a plain value look the same. The engine
 * does send the difference (sdk/v3 analyzer_plugin.go marshals with KeepSecrets); this records it,
 * by wrapping the deserializer the analyzer server calls through its module's exports, before the
 * pack is served. Pinned to the version checked: another version is refused at load.
 */
const require_ = createRequire(require.resolve("@pulumi/policy"));
const POLICY_VERSION = "1.21.0";
const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
const PROXY_TARGET = "__getSpecialProxyTarget";

const secretsOf = new WeakMap<object, Path[]>();

function collect(value: unknown, path: (string | number)[], out: Path[]): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => collect(v, [...path, i], out));
    return;
  }
  if (value === null || typeof value !== "object") return;
  const o = value as Record<string, unknown>;
  if (o[SECRET_SIG_KEY] === SECRET_SIG) {
    out.push(path);
    return;
  }
  for (const [k, v] of Object.entries(o)) collect(v, [...path, k], out);
}

let installed = false;

/** Makes secretPathsOf() answer: call once, before the pack is served. */
export function trackSecrets(): void {
  if (installed) return;
  const version = (require_("./package.json") as { version: string }).version.replace(/^v/, "");
  if (version !== POLICY_VERSION) throw new Error(`pulumi-cdc-policy reads secrets through @pulumi/policy ${POLICY_VERSION}'s analyzer; ${version} is installed: install @pulumi/policy@${POLICY_VERSION}`);
  const mod = require_("./deserialize.js") as { deserializeProperties: (struct: { toJavaScript(): unknown }, proxySecrets: boolean) => object };
  const original = mod.deserializeProperties;
  mod.deserializeProperties = (struct, proxySecrets) => {
    const props = original(struct, proxySecrets);
    const paths: Path[] = [];
    collect(struct.toJavaScript(), [], paths);
    secretsOf.set(props, paths);
    return props;
  };
  installed = true;
}

/** The unwrapped object behind @pulumi/policy's unknown-checking proxy (the object itself when it is none). */
export function target<T extends object>(props: T): T {
  return ((props as Record<string, unknown>)[PROXY_TARGET] as T | undefined) ?? props;
}

/** Whether the engine sent the value at `path` of these properties (a policy's `props`) as a secret, or inside one. */
export function isSecretAt(props: object, path: Path): boolean {
  const paths = secretsOf.get(target(props));
  if (!paths) throw new Error("pulumi-cdc-policy: the secrets of these properties were not recorded (trackSecrets() runs before the pack is served)");
  return paths.some((p) => p.length <= path.length && p.every((part, i) => String(part) === String(path[i])));
}
