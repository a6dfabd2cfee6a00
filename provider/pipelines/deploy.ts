import { setTimeout as delay } from "node:timers/promises";
import { anyJsonSchema, CdcApiError, type CdcClient } from "../client/index.js";
import { jobStatusSchema, type JobStatus } from "./schemas.js";

/** Job states after which waiting longer changes nothing. */
const SETTLED_BAD = new Set(["FAILED", "CANCELED", "CANCELLED", "STOPPED"]);

/** Transform types that run on Flink get a preview deployment before the live one; topic_router runs on Kafka Connect. */
export function runsOnFlink(type: string): boolean {
  return type !== "topic_router";
}

/**
 * The job's status, or undefined when it was never deployed: the platform answers 400 (its
 * rewritten 404) with "Job not found" or "Transform not found".
 */
export async function jobStatus(api: CdcClient, transformId: string): Promise<JobStatus | undefined> {
  try {
    return await api.get("/transforms/{id}/job_status", { params: { id: transformId }, schema: jobStatusSchema });
  } catch (err) {
    if (err instanceof CdcApiError && (err.status === 400 || err.status === 404) && /not found/i.test(String(err.detail))) return undefined;
    throw err;
  }
}

export class DeployError extends Error {
  constructor(
    message: string,
    readonly status: string,
  ) {
    super(message);
    this.name = "DeployError";
  }
}

/**
 * Deploys the latest implementation (a preview first on Flink, then live) and waits for the job
 * to reach RUNNING: polling job_status with a back-off from 0.25 s to 5 s, for at most
 * `timeoutSec`. FAILED (or CANCELED, STOPPED) ends the wait with the API's own words.
 */
export async function deployAndWait(
  api: CdcClient,
  t: { id: string; name: string; type: string; replayWindow?: string; timeoutSec: number },
  sleep: (ms: number) => Promise<void> = (ms) => delay(ms),
  now: () => number = Date.now,
): Promise<JobStatus> {
  const version = "no-version";
  if (runsOnFlink(t.type)) {
    const replay = t.replayWindow && t.replayWindow !== "0" ? { replay_window: t.replayWindow } : undefined;
    await api.put("/transforms/{id}/deploy-job-preview/{version}", { params: { id: t.id, version }, schema: anyJsonSchema, ...(replay ? { query: replay } : {}) });
  }
  await api.put("/transforms/{id}/deploy-job-live/{version}", { params: { id: t.id, version }, schema: anyJsonSchema });
  const deadline = now() + t.timeoutSec * 1000;
  let wait = 250;
  let last: JobStatus | undefined;
  for (;;) {
    last = await jobStatus(api, t.id);
    const status = (last?.status ?? "").toUpperCase();
    if (status === "RUNNING") return last!;
    if (SETTLED_BAD.has(status)) {
      const reason = last?.failure_reason ?? last?.error ?? last?.message;
      throw new DeployError(`transform "${t.name}" (${t.id}): its job is ${status}${reason ? `: ${reason}` : ""}. Fix the implementation and run \`pulumi up\` again.`, status);
    }
    if (now() + wait > deadline) {
      throw new DeployError(
        `transform "${t.name}" (${t.id}): its job is still ${status || "not started"} after ${t.timeoutSec} s (deployTimeoutSec); it was not reported RUNNING. Run \`pulumi up\` again to wait longer, or raise deployTimeoutSec.`,
        status || "UNKNOWN",
      );
    }
    await sleep(wait);
    wait = Math.min(wait * 2, 5000);
  }
}
