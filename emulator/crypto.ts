import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * Secrets at rest: header values, LLM API keys and secret connector config are sealed with
 * AES-256-GCM so that neither memory dumps of the state nor the state file hold them in plain.
 * Client secrets and tokens are only ever compared, so they are stored as hashes.
 */
export class Vault {
  private readonly key: Buffer;
  private readonly digestKey: Buffer;

  constructor(keyBase64: string, digestKeyBase64: string) {
    this.key = Buffer.from(keyBase64, "base64");
    this.digestKey = Buffer.from(digestKeyBase64, "base64");
    if (this.key.length !== 32) throw new Error("vault key must be 32 bytes");
  }

  static newKey(): string {
    return randomBytes(32).toString("base64");
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith("v1:")) throw new Error("unknown sealed value format");
    const raw = Buffer.from(sealed.slice(3), "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  }

  /** Keyed fingerprint: lets the history tell whether a secret changed without storing it. */
  digest(plain: string): string {
    return createHmac("sha256", this.digestKey).update(plain, "utf8").digest("hex");
  }
}

const SCRYPT = { N: 4096, r: 8, p: 1 } as const;

function scryptAsync(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, 32, SCRYPT, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(secret, salt);
  return `scrypt$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, saltB64, keyB64] = stored.split("$");
  if (scheme !== "scrypt" || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, "base64");
  const actual = await scryptAsync(secret, Buffer.from(saltB64, "base64"));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Tokens are looked up by hash so a leaked state file does not leak live tokens. */
export function tokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function randomToken(prefix: string, bytes = 32): string {
  return `${prefix}${randomBytes(bytes).toString("base64url")}`;
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

/**
 * A new object's id, shaped as the platform's are: 24 lowercase hex characters (a MongoDB
 * ObjectId), for every kind it keeps (sources, destinations, pipelines, transforms, tags, agents,
 * connections, credentials, bindings, ...), so a client that checks or parses ids meets here what
 * it meets there.
 */
export function objectId(): string {
  return randomHex(12);
}

/** The first and last three characters of a secret, all that is kept of it besides its hash (none of a short one). */
export function secretHint(secret: string): string {
  return secret.length > 12 ? `${secret.slice(0, 3)}${secret.slice(-3)}` : "";
}
