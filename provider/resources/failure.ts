import { redact } from "../client/index.js";

/**
 * An error after the API created (or changed) the object: carrying `id` and `properties` makes
 * the Pulumi engine keep the resource in state instead of losing track of a live object.
 */
export class PartialFailure extends Error {
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];

  constructor(what: string, id: string, properties: Record<string, unknown>, cause: unknown) {
    const reason = redact(cause instanceof Error ? cause.message : String(cause));
    super(`${what} (${id}) was written but could not be completed: ${reason}. It is kept in the stack; run \`pulumi up\` again to finish.`);
    this.name = "PartialFailure";
    this.id = id;
    this.properties = properties;
    this.reasons = [reason];
  }
}

/** The provider's serialized code travels in `__provider`; a partial failure must keep it. */
export function withProviderKey(outs: object, inputs: object): Record<string, unknown> {
  const provider = (inputs as { __provider?: unknown }).__provider;
  return provider === undefined ? { ...outs } : { ...outs, __provider: provider };
}
