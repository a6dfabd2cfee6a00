import { z } from "zod";
import { failuresFromZod, knowable } from "../check.js";
import { setTimeout as delay } from "node:timers/promises";
import { backoffDelay, clientCredentialSchema, currentBudget, type CdcClient, type ClientCredential } from "../client/index.js";
import { isTransient } from "./create.js";
import { unlessGone } from "./gone.js";
import { client } from "../context.js";
import { isMasked, sameMembers } from "../normalize.js";

export interface ClientCredentialInputs {
  roleIds: string[];
  description?: string;
  serviceId?: string;
}

export interface ClientCredentialOutputs extends ClientCredentialInputs {
  clientId: string;
  /**
   * Returned by the API only at creation; a Pulumi secret (additionalSecretOutputs). Absent for a
   * credential `pulumi import` took in: it was not created by Pulumi, so Pulumi never saw it.
   */
  secret?: string;
  roleKeys: string[];
  createdAt: string;
}

export const inputSchema = z.object({
  roleIds: z
    .array(knowable(z.string().min(1, { error: "must not be empty" })), {
      error: "is required: a list of role ids, e.g. [\"viewer\"] (see GET /auth/roles)",
    })
    .min(1, { error: "needs at least one role id: a credential is bound to one or more roles" }),
  description: z.string({ error: "must be a string" }).max(1024, { error: "must be at most 1024 characters" }).optional(),
  serviceId: knowable(z.string().min(1, { error: "must not be empty: leave it unset for no service" })).optional(),
});

function outputs(cred: ClientCredential, inputs: ClientCredentialInputs, secret: string | undefined): ClientCredentialOutputs {
  return {
    ...inputs,
    clientId: cred.client_id,
    // Absent only for an imported credential: the API showed its secret once, to whoever made it.
    ...(secret !== undefined ? { secret } : {}),
    roleKeys: cred.roles.map((r) => r.key ?? r.id),
    createdAt: cred.created_at === null || cred.created_at === undefined ? "" : String(cred.created_at),
  };
}

function listCredentials(api: CdcClient): Promise<ClientCredential[]> {
  return api.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) });
}

/**
 * New credentials (not in `before`) that match these inputs: what a create whose answer was
 * lost left behind. Its secret went with the answer, so it is useless and must not stay.
 */
async function lostCredentials(api: CdcClient, before: ReadonlySet<string>, inputs: ClientCredentialInputs): Promise<ClientCredential[]> {
  return (await listCredentials(api)).filter(
    (c) =>
      !before.has(c.client_id) &&
      (c.created_from ?? api.createdFrom) === api.createdFrom &&
      (c.description ?? "") === (inputs.description ?? "") &&
      (c.service_id ?? "") === (inputs.serviceId ?? "") &&
      sameMembers(c.roles.map((r) => r.id), inputs.roleIds),
  );
}

/** Gone already is what a delete wants (a retried DELETE whose first answer was lost finds nothing). */
async function deleteCredential(api: CdcClient, id: string): Promise<void> {
  await unlessGone(() => api.delete("/auth/client-credentials/{id}", { params: { id } }));
}

// Credentials have no unique name: a lost create is recognised as "a new matching credential
// since just before it", so two creates of this process must never overlap in that window.
let createQueue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const run = createQueue.then(fn, fn);
  createQueue = run.catch(() => undefined);
  return run;
}

/**
 * Client credentials have no update in the API and reveal their secret only once, so every
 * change replaces, and the secret lives on in state as a Pulumi secret.
 */
export class ClientCredentialProvider {
  /** Every property replaces: the API has no update for a credential. */
  readonly replaceOnChange = ["roleIds", "description", "serviceId"] as const;

  async check(_olds: unknown, news: Record<string, unknown>) {
    const parsed = inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const { roleIds, description, serviceId } = parsed.data;
    const inputs: ClientCredentialInputs = {
      roleIds,
      ...(description !== undefined ? { description } : {}),
      ...(serviceId !== undefined ? { serviceId } : {}),
    };
    return { inputs, failures: [] };
  }

  async diff(_id: string, olds: ClientCredentialOutputs, news: ClientCredentialInputs) {
    const replaces = [
      ...(!sameMembers(olds.roleIds, news.roleIds) ? ["roleIds"] : []),
      ...((olds.description ?? "") !== (news.description ?? "") ? ["description"] : []),
      ...((olds.serviceId ?? "") !== (news.serviceId ?? "") ? ["serviceId"] : []),
    ];
    return { changes: replaces.length > 0, replaces };
  }

  async create(inputs: ClientCredentialInputs) {
    return oneAtATime(() => this.createOne(inputs));
  }

  /**
   * The secret is in the create's answer only. When the answer is lost (5xx, dropped
   * connection, timeout), the credential it may have created is found and deleted, then the
   * create is sent again: never an orphan, and one `pulumi up` still converges.
   */
  private async createOne(inputs: ClientCredentialInputs) {
    const api = client();
    const policy = api.retryPolicy;
    const budget = currentBudget();
    const failures: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const before = new Set((await listCredentials(api)).map((c) => c.client_id));
      let cred: ClientCredential;
      try {
        cred = await api.post("/auth/client-credentials", {
          body: {
            role_ids: inputs.roleIds,
            // Left out when unset, as the platform's own client does, rather than sent as null.
            ...(inputs.description !== undefined ? { description: inputs.description } : {}),
            ...(inputs.serviceId !== undefined ? { service_id: inputs.serviceId } : {}),
            created_from: api.createdFrom,
          },
          schema: clientCredentialSchema,
        });
      } catch (err) {
        if (!isTransient(err)) throw err;
        failures.push((err as Error).message);
        const lost = await lostCredentials(api, before, inputs);
        for (const c of lost) await deleteCredential(api, c.client_id);
        const wait = backoffDelay(attempt, policy);
        if (attempt >= policy.maxAttempts || (budget !== undefined && !budget.allows(wait))) {
          const note = lost.length > 0 ? ` The credential the last attempt created (${lost.map((c) => c.client_id).join(", ")}) was deleted again: its secret was lost with the answer.` : "";
          throw new Error(`client credential: create failed ${attempt} times (${failures.join("; ")}).${note} Run \`pulumi up\` again when the API is back.`);
        }
        budget?.record("create", "lost answer");
        await delay(wait);
        continue;
      }
      if (!cred.secret || isMasked(cred.secret)) {
        await api.delete("/auth/client-credentials/{id}", { params: { id: cred.client_id } }).catch(() => undefined);
        throw new Error(`the API created client credential ${cred.client_id} but returned no secret, so it was deleted again; run \`pulumi up\` to retry`);
      }
      return { id: cred.client_id, outs: outputs(cred, inputs, cred.secret) };
    }
  }

  async read(id: string, props: ClientCredentialOutputs) {
    const cred = (await listCredentials(client())).find((c) => c.client_id === id);
    if (!cred) return { id: "", props: {} };
    const realigned: ClientCredentialInputs = {
      roleIds: cred.roles.map((r) => String(r.id)),
      ...(cred.description ? { description: cred.description } : {}),
      ...(cred.service_id ? { serviceId: cred.service_id } : {}),
    };
    // The API never shows the secret again: keep the one from creation. An imported credential
    // has none (its secret stays with whoever created it): the output is left out, not faked.
    return { id, props: outputs(cred, realigned, props.secret), inputs: realigned };
  }

  async delete(id: string) {
    await deleteCredential(client(), id);
  }
}
