import { z } from "zod";
import { failuresFromZod, knowable } from "../check.js";
import { clientCredentialSchema, ConnectionError, isNotFound, ServerError, type CdcClient, type ClientCredential } from "../client/index.js";
import { client } from "../context.js";
import { isMasked, sameMembers } from "../normalize.js";

export interface ClientCredentialInputs {
  roleIds: string[];
  description?: string;
  serviceId?: string;
}

export interface ClientCredentialOutputs extends ClientCredentialInputs {
  clientId: string;
  /** Returned by the API only at creation; a Pulumi secret (additionalSecretOutputs). */
  secret: string;
  roleKeys: string[];
  createdAt: string;
}

const inputSchema = z.object({
  roleIds: z
    .array(knowable(z.string().min(1, { error: "must not be empty" })), {
      error: "is required: a list of role ids, e.g. [\"viewer\"] (see GET /auth/roles)",
    })
    .min(1, { error: "needs at least one role id: a credential is bound to one or more roles" }),
  description: z.string({ error: "must be a string" }).max(1024, { error: "must be at most 1024 characters" }).optional(),
  serviceId: knowable(z.string().min(1, { error: "must not be empty: leave it unset for no service" })).optional(),
});

function outputs(cred: ClientCredential, inputs: ClientCredentialInputs, secret: string): ClientCredentialOutputs {
  return {
    ...inputs,
    clientId: cred.client_id,
    secret,
    roleKeys: cred.roles.map((r) => r.key ?? r.id),
    createdAt: cred.created_at === null || cred.created_at === undefined ? "" : String(cred.created_at),
  };
}

function listCredentials(api: CdcClient): Promise<ClientCredential[]> {
  return api.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) });
}

/**
 * The create's answer was lost: a credential may exist whose secret nobody will ever see. It is
 * useless and must not be left behind, so a new credential matching these inputs is deleted.
 */
async function removeLostCredentials(api: CdcClient, before: ReadonlySet<string>, inputs: ClientCredentialInputs, cause: Error): Promise<never> {
  const lost = (await listCredentials(api).catch(() => [])).filter(
    (c) =>
      !before.has(c.client_id) &&
      (c.description ?? "") === (inputs.description ?? "") &&
      (c.service_id ?? "") === (inputs.serviceId ?? "") &&
      sameMembers(c.roles.map((r) => r.id), inputs.roleIds),
  );
  for (const c of lost) await api.delete("/auth/client-credentials/{id}", { params: { id: c.client_id } }).catch(() => undefined);
  const note = lost.length > 0 ? ` The credential it created (${lost.map((c) => c.client_id).join(", ")}) was deleted again: its secret was lost with the answer.` : "";
  throw new Error(`${cause.message}.${note} Run \`pulumi up\` to retry.`);
}

/**
 * Client credentials have no update in the API and reveal their secret only once, so every
 * change replaces, and the secret lives on in state as a Pulumi secret.
 */
export class ClientCredentialProvider {
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
    const api = client();
    // Credentials have no unique name to find them by, so remember which exist before creating.
    const before = new Set((await listCredentials(api)).map((c) => c.client_id));
    let cred: ClientCredential;
    try {
      cred = await api.post("/auth/client-credentials", {
        body: { role_ids: inputs.roleIds, description: inputs.description ?? null, service_id: inputs.serviceId ?? null },
        schema: clientCredentialSchema,
      });
    } catch (err) {
      if (err instanceof ConnectionError || err instanceof ServerError) await removeLostCredentials(api, before, inputs, err);
      throw err;
    }
    if (!cred.secret || isMasked(cred.secret)) {
      await api.delete("/auth/client-credentials/{id}", { params: { id: cred.client_id } }).catch(() => undefined);
      throw new Error(`the API created client credential ${cred.client_id} but returned no secret, so it was deleted again; run \`pulumi up\` to retry`);
    }
    return { id: cred.client_id, outs: outputs(cred, inputs, cred.secret) };
  }

  async read(id: string, props: ClientCredentialOutputs) {
    const cred = (await listCredentials(client())).find((c) => c.client_id === id);
    if (!cred) return { id: "", props: {} };
    const realigned: ClientCredentialInputs = {
      roleIds: cred.roles.map((r) => String(r.id)),
      ...(cred.description ? { description: cred.description } : {}),
      ...(cred.service_id ? { serviceId: cred.service_id } : {}),
    };
    // The API never shows the secret again: keep the one from creation.
    return { id, props: outputs(cred, realigned, props.secret ?? ""), inputs: realigned };
  }

  async delete(id: string) {
    try {
      await client().delete("/auth/client-credentials/{id}", { params: { id } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
