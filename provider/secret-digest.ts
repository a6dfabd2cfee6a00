import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { isMasked, sameConfigValue } from "./normalize.js";

/**
 * What a resource keeps of a secret in its outputs: a keyed digest, never the value. Outputs
 * travel back to the program in the engine's RegisterResource answer, which `pulumi up --debug`
 * prints; the program's own secret values are not on the CLI's redaction list, so an echoed
 * secret would appear there in plain text. A digest still tells diff whether the value changed.
 * The salt is random per resource, so equal secrets do not give equal digests across resources.
 */

export function newSalt(): string {
  return randomBytes(16).toString("hex");
}

export function secretDigest(salt: string, value: string): string {
  return createHmac("sha256", salt).update(value, "utf8").digest("hex").slice(0, 32);
}

/** True when `value` is the one `digest` was made from (constant time). */
export function sameSecret(salt: string | undefined, digest: string | undefined, value: string): boolean {
  if (!salt || !digest) return false;
  const a = Buffer.from(secretDigest(salt, value), "hex");
  const b = Buffer.from(digest, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A secret config value as outputs keep it. An object, so tools that read state see no scalar to compare. */
export interface SecretDigestValue {
  secretDigest: string;
}

/**
 * The config with every secret scalar replaced by its digest. Without a salt (state written
 * before digests existed) the config is returned as is, so it is compared as before.
 */
export function digestSecrets<T extends Record<string, unknown>>(config: T, secretKeys: ReadonlySet<string>, salt: string | undefined): T {
  if (!salt) return config;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    const scalar = typeof value === "string" || typeof value === "number" || typeof value === "boolean";
    // The API's mask (what a get() reads) is no secret, and stays as the API shows it.
    out[key] = secretKeys.has(key) && scalar && !isMasked(value) ? { secretDigest: secretDigest(salt, String(value)) } : value;
  }
  return out as T;
}

/**
 * The secret keys whose recorded value is the program's own value in plain, not a digest: the
 * stack recorded them before the catalogue made the key secret (an S3 destination's
 * `aws.access.key.id` at the platform's 3.0). The object already holds that value; only the
 * stack's record of it must change, to a digest in outputs and a Pulumi secret in inputs.
 */
export function recordedInPlain(recorded: Readonly<Record<string, unknown>>, news: Readonly<Record<string, unknown>>, secretKeys: ReadonlySet<string>): string[] {
  const scalar = (v: unknown) => typeof v === "string" || typeof v === "number" || typeof v === "boolean";
  return Object.keys(recorded)
    .filter((key) => secretKeys.has(key) && scalar(recorded[key]) && !isMasked(recorded[key]) && scalar(news[key]) && sameConfigValue(recorded[key], news[key]))
    .sort();
}
