import { setTimeout as delay } from "node:timers/promises";
import {
  backoffDelay,
  ConflictError,
  ConnectionError,
  currentBudget,
  RateLimitError,
  redact,
  ResponseShapeError,
  ServerError,
  type RetryPolicy,
} from "../client/index.js";

/** How one kind's create is sent, and how its result is recognised when the answer is lost. */
export interface CreateSteps<T> {
  /** `source "orders"`: for messages. */
  what: string;
  /** The POST. */
  send: () => Promise<T>;
  /** The object of this name, if there is one (names are unique per tenant). */
  find: () => Promise<T | undefined>;
  /** Why `found` is not what this create sent (another connector, not created by IaC), or undefined when it is. */
  mismatch: (found: T) => string | undefined;
  policy: RetryPolicy;
  sleep?: (ms: number) => Promise<void>;
  /** How `find` looks, for the message when the attempts run out: "looked up by name" unless said. */
  lookup?: string;
}

/**
 * A failure after which the object may or may not exist: the server failed (5xx), refused for
 * now (429 after the client's own retries), the connection broke before the answer came, or the
 * answer came garbled (a proxy's page with a 200, a body cut off: the create may have been done).
 */
export function isTransient(err: unknown): boolean {
  return err instanceof ServerError || err instanceof ConnectionError || err instanceof RateLimitError || err instanceof ResponseShapeError;
}

/** Said when the name is taken by an object this create did not make. */
export class NameTakenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NameTakenError";
  }
}

/**
 * Creates an object so that a transient failure neither fails the run nor leaves an orphan.
 * After a failure whose outcome is unknown, the object is looked up by its unique name: if it
 * exists and is what this create sent, it is the create's result, as if the answer had
 * arrived; if it does not, the create is sent again. A 409 after such a failure means an
 * earlier attempt did create it, and is resolved the same way. Bounded by the policy's
 * attempts and by the resource's budget.
 */
export async function createSurvivingFaults<T>(steps: CreateSteps<T>): Promise<T> {
  const sleep = steps.sleep ?? ((ms: number) => delay(ms));
  const budget = currentBudget();
  const failures: string[] = [];
  let uncertain = false;
  let lastError: unknown;
  for (let attempt = 1; ; attempt++) {
    try {
      return await steps.send();
    } catch (err) {
      if (err instanceof ConflictError && !uncertain) throw err;
      if (!(err instanceof ConflictError) && !isTransient(err)) throw err;
      uncertain = true;
      lastError = err;
      failures.push(describe(err));
    }
    // Did the failed attempt (or an earlier one) create it after all?
    let found: T | undefined;
    let lookedUp = false;
    try {
      found = await steps.find();
      lookedUp = true;
    } catch (err) {
      // Unknown for now; the next send answers it: a 409 leads back here.
      if (!isTransient(err)) throw err;
      failures.push(`lookup ${describe(err)}`);
    }
    if (found !== undefined) {
      const why = steps.mismatch(found);
      if (why === undefined) return found;
      throw new NameTakenError(`${steps.what}: the name is taken by another object (${why}); choose another name`);
    }
    const wait = backoffDelay(attempt, steps.policy);
    const spent = budget !== undefined && !budget.allows(wait);
    if (attempt >= steps.policy.maxAttempts || spent) {
      const lookup = steps.lookup ?? "looked up by name";
      // A 409 to a create sent again after a failure is most likely the earlier attempt's work.
      const outcome =
        lastError instanceof ConflictError
          ? `the create was sent again after ${failures[0] ?? "a failure"} and the API answered that it already exists, so an earlier attempt of this create most likely made it (not a name collision), but ${lookedUp ? `it was not found (${lookup})` : "the API could not be asked for it"}`
          : lookedUp
            ? `nothing was created (${lookup})`
            : "the API could not be asked whether it was created";
      const knob = spent ? `the resource's retry budget (cdc:resourceTimeoutSec, ${Math.round(budget!.timeoutMs / 1000)} s) is spent` : `cdc:retryAttempts (${steps.policy.maxAttempts}) allows no more`;
      const elapsed = budget ? ` over ${(budget.elapsedMs() / 1000).toFixed(1)} s` : "";
      const retried = budget?.summary() ? ` Retried in all: ${budget.summary()}.` : "";
      const last = redact(lastError instanceof Error ? lastError.message : String(lastError));
      throw new Error(
        `${steps.what}: create failed ${attempt} ${attempt === 1 ? "time" : "times"}${elapsed} (${failures.join("; ")}); ${outcome}; ${knob}. ` +
          `Last error: ${last}.${retried} Run \`pulumi up\` again when the API is back.`,
      );
    }
    budget?.record("create", failures[failures.length - 1] ?? "unknown");
    await sleep(wait);
  }
}

function describe(err: unknown): string {
  if (err instanceof ConnectionError) return err.code;
  if (err instanceof ConflictError) return "409 after an earlier attempt";
  if (err instanceof ResponseShapeError) return `a garbled ${err.status}`;
  if (err instanceof ServerError || err instanceof RateLimitError) return String(err.status);
  return err instanceof Error ? err.name : "error";
}
