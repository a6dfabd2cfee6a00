import { authMode, hiddenSecrets, isShown, normalizeValue, requiredWhenShown, usesConnect, writeOnlyKeys } from "../catalogue/api-rules.js";
import type { ConnectorSpec } from "../catalogue/index.js";
import type { CheckFailure } from "./check.js";
import { containsUnknown, isMasked, isUnknown, sameConfigValue, type ConfigMap } from "./normalize.js";
import { sameSecret, type SecretDigestValue } from "./secret-digest.js";

/**
 * The write contract of API sources (catalogue family "api"), read from their data: the checks a
 * plan makes before any call, the config a create or an update sends, and how their stored,
 * normalised config compares with the program's. CDC sources keep the contract of check.ts.
 */

/** A config as check() gives it: `null` is kept for a secret the program clears. */
type Config = Readonly<Record<string, unknown>>;

const isSet = (value: unknown) => value !== null && value !== undefined && !(typeof value === "string" && value === "") && !(Array.isArray(value) && value.length === 0);

/** The key a server picks for an API source; sending it is refused by the service, so a program never sets it. */
export const SERVER_PICKED = "kc_cluster_id";

/**
 * Plan-time checks of an API source: fields required while the console shows them, fields that
 * need a partner, secrets set for another auth mode, and a Connect grant where the sign-in needs
 * one. `olds` is the config the stack last checked (absent on create): a secret left out on an
 * update is kept by the service, so it still counts as set while the auth mode is unchanged.
 */
export function checkApiSource(spec: ConnectorSpec, config: Config, olds?: Config): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const at = (key: string) => `config["${key}"]`;
  const name = (key: string) => spec.keys.find((k) => k.key === key)?.name ?? key;
  // A field that depends on a value known only at up is checked then.
  const conditionKnown = (key: string) => !containsUnknown(config[key]);
  const sameMode = olds !== undefined && authMode(spec, olds) === authMode(spec, config);
  const secret = (key: string) => spec.keys.some((k) => k.key === key && k.secret);
  // Required while shown, a secret was set when the mode began to show it; the stack's inputs may
  // have dropped it since (left out = kept), so its absence alone proves nothing.
  const kept = (key: string) => sameMode && secret(key) && !(key in config);
  for (const c of requiredWhenShown(spec, config)) {
    if (!conditionKnown(c.when.key) || containsUnknown(config[c.field]) || isSet(config[c.field]) || kept(c.field)) continue;
    const shownBy = `${c.when.key} is ${config[c.when.key] === undefined ? `unset (so ${c.when.default ?? "unset"})` : String(config[c.when.key])}`;
    failures.push({ property: at(c.field), reason: `is required by the ${spec.displayName} source when ${shownBy}: set it (helper property ${name(c.field)}), or change ${c.when.key}` });
  }
  for (const d of spec.dependencies ?? []) {
    if (!isSet(config[d.field])) continue;
    for (const partner of d.requires) {
      if (isSet(config[partner]) || containsUnknown(config[partner]) || kept(partner)) continue;
      failures.push({ property: at(partner), reason: `must be set together with ${d.field}: set ${partner} (helper property ${name(partner)}) too, or remove ${d.field}` });
    }
  }
  const mode = authMode(spec, config);
  for (const key of hiddenSecrets(spec, config)) {
    if (!isSet(config[key]) || containsUnknown(config[spec.oauth?.modeKey ?? "auth_mode"])) continue;
    const usedIn = spec.keys.find((k) => k.key === key)?.writeOnly ? [spec.oauth?.modeValue] : (spec.conditions ?? []).filter((c) => c.field === key).flatMap((c) => c.when.values);
    failures.push({
      property: at(key),
      reason: `is not used when auth_mode is ${mode ?? "unset"} (it belongs to auth_mode ${usedIn.filter(Boolean).join(" or ")}): remove it, or set auth_mode to the mode it belongs to`,
    });
  }
  const grants = writeOnlyKeys(spec);
  if (spec.oauth && grants.length > 0 && usesConnect(spec, config)) {
    const grant = grants[0]!;
    const granted = isSet(config[grant]) || containsUnknown(config[grant]);
    const connect = `obtain a grant with the Streamkap UI's Connect, or run ${spec.oauth.connect}, open the returned authorize_url, poll the grant, and set ${grant} within 10 minutes`;
    if (olds === undefined && !granted) {
      failures.push({ property: at(grant), reason: `is required to create a ${spec.displayName} source that signs in through Connect: ${connect}` });
    } else if (olds !== undefined && !usesConnect(spec, olds) && !granted) {
      failures.push({ property: at(grant), reason: `is required to switch the ${spec.displayName} source to Connect: ${connect}` });
    }
    const host = spec.oauth.hostKey;
    if (host && olds !== undefined && isSet(olds[host]) && !isUnknown(config[host]) && !sameConfigValue(olds[host], config[host]) && !granted) {
      failures.push({ property: at(grant), reason: `is required when ${host} changes (a grant is bound to its ${host}): ${connect}` });
    }
  }
  if (SERVER_PICKED in config) failures.push({ property: at(SERVER_PICKED), reason: "is picked by the service for an API source and never sent: remove it from config" });
  return failures;
}

/** An API source's config for create: the keys the program set; unset (null) ones are left out, the service reads them from their absence. */
export function apiCreateConfig(config: ConfigMap | Config): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).filter(([k, v]) => v !== null && v !== undefined && k !== SERVER_PICKED));
}

function isDigest(value: unknown): value is SecretDigestValue {
  return !!value && typeof value === "object" && typeof (value as SecretDigestValue).secretDigest === "string";
}

/** Whether a secret the program gives is the one the stack recorded (by its keyed digest, or equal when state predates digests). */
function sameRecordedSecret(salt: string | undefined, recorded: unknown, value: unknown): boolean {
  if (recorded === undefined || value === null) return false;
  if (isDigest(recorded)) return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? sameSecret(salt, recorded.secretDigest, String(value)) : false;
  return !isMasked(recorded) && sameConfigValue(recorded, value);
}

/**
 * An API source's config for update. The service replaces the config wholesale but keeps a secret
 * the body leaves out, so: every non-secret key the program set is sent; a secret is sent when it
 * changed, or when the auth mode changed and the new mode shows it (a switch drops the old mode's
 * secrets); an unchanged one is left out; an explicit null clears it; a write-only grant the stack
 * already spent (recorded by digest) is never sent again.
 */
export function apiUpdateConfig(spec: ConnectorSpec, config: ConfigMap | Config, recorded: Config, salt: string | undefined): Record<string, unknown> {
  const modeChanged = authMode(spec, recorded) !== authMode(spec, config);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined || key === SERVER_PICKED) continue;
    const keySpec = spec.keys.find((k) => k.key === key);
    if (!keySpec?.secret) {
      if (value !== null) out[key] = value;
      continue;
    }
    if (value === null) {
      out[key] = null;
      continue;
    }
    const unchanged = sameRecordedSecret(salt, recorded[key], value);
    if (keySpec.writeOnly ? unchanged : unchanged && !(modeChanged && isShown(spec, key, config))) continue;
    out[key] = value;
  }
  return out;
}

/**
 * The live config with each value the service normalised (`act_123` stored as `123`) put back in
 * the program's spelling when it is the program's value normalised, so the stringified, normalised
 * echo compares equal to what the program wrote and shows no drift.
 */
export function liveAsProgram(spec: ConnectorSpec, planned: Config, live: Readonly<Record<string, unknown>> | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(live ?? {}) };
  for (const key of spec.keys) {
    if (!key.normalize || !(key.key in out) || !(key.key in planned)) continue;
    const mine = normalizeValue(key, planned[key.key]);
    const theirs = normalizeValue(key, out[key.key]);
    if (sameConfigValue(mine, theirs)) out[key.key] = planned[key.key];
  }
  return out;
}

/**
 * The recorded config as diff compares it for an API source: a secret the program now leaves
 * out is kept by the service, so it is no change, and is left out of the comparison.
 */
export function recordedAsCompared(spec: ConnectorSpec, recorded: ConfigMap, news: Config): ConfigMap {
  const out: ConfigMap = {};
  for (const [key, value] of Object.entries(recorded)) {
    if (!(key in news) && spec.keys.some((k) => k.key === key && k.secret)) continue;
    out[key] = value;
  }
  return out;
}

/**
 * The checked config of an API source: the wire form check.ts gives, with each secret the program
 * set to `null` kept as `null`, the program's way to clear it (leaving a secret out keeps it).
 */
export function withClearedSecrets(spec: ConnectorSpec, given: Config, wire: ConfigMap): ConfigMap {
  const out: Record<string, unknown> = { ...wire };
  for (const key of spec.keys) if (key.secret && key.key in given && given[key.key] === null) out[key.key] = null;
  return out as ConfigMap;
}

/** The save-time connection warning of a create or update answer, under any of the spellings it may take. */
export function connectionWarning(answer: Readonly<Record<string, unknown>>): string | undefined {
  for (const field of ["connection_warning", "connectionWarning", "warning"]) {
    const value = answer[field];
    if (typeof value === "string" && value.trim() !== "") return value;
  }
  return undefined;
}

/**
 * The catalogue's "required" failures without those of a secret an update leaves out: the service
 * keeps it (a program need not hold a secret it set once). A create, or a secret set to null, still fails.
 */
export function withoutKeptSecrets(spec: ConnectorSpec, failures: CheckFailure[], config: Config, olds: Config | undefined): CheckFailure[] {
  if (olds === undefined) return failures;
  const kept = new Set(spec.keys.filter((k) => k.secret && !(k.key in config)).map((k) => `config["${k.key}"]`));
  return failures.filter((f) => !kept.has(f.property));
}
