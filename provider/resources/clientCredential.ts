import { z } from "zod";
import { failuresFromZod } from "../check.js";
import { setTimeout as delay } from "node:timers/promises";
import { anyJsonSchema, backoffDelay, BEFORE_SEND_CODES, clientCredentialSchema, ConnectionError, currentBudget, isNotFound, NotFoundError, type CdcClient, type ClientCredential } from "../client/index.js";
import { isTransient } from "./create.js";
import { unlessGone } from "./gone.js";
import { client } from "../context.js";
import { CLIENT_CREDENTIAL } from "../kinds/clientCredential.js";
import type { DriftFindings, RecoverContext, Recovered } from "../kinds/spec.js";
import { plainString } from "./recovered.js";
import type { ImportListing } from "../kinds/imported.js";

// The PATCH answers the credential (the emulator's decision), or nothing, which the platform's
// own client also takes as success: then it is read back from the listing.
const credentialOrEmpty = z.union([clientCredentialSchema, z.undefined()]);
import { isMasked, isUnknown, sameMembers } from "../normalize.js";

export interface ClientCredentialInputs {
  roleIds: string[];
  description?: string;
  serviceId?: string;
  /** The client id of an existing credential to take over instead of creating one. */
  adoptId?: string;
  /** With adoptId only: the adopted credential's secret, as its creator was shown it (never by the API again). */
  secret?: string;
}

export interface ClientCredentialOutputs extends Omit<ClientCredentialInputs, "secret"> {
  clientId: string;
  /**
   * Returned by the API only at creation; a Pulumi secret (additionalSecretOutputs). Absent for a
   * credential `pulumi import` took in: it was not created by Pulumi, so Pulumi never saw it.
   */
  secret?: string;
  roleKeys: string[];
  createdAt: string;
}


function outputs(cred: ClientCredential, inputs: ClientCredentialInputs, secret: string | undefined): ClientCredentialOutputs {
  const { secret: _input, ...rest } = inputs;
  return {
    ...rest,
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

/** The credential of this client id, or undefined when it is gone (the API has no read of one). */
export async function findCredential(api: CdcClient, id: string): Promise<ClientCredential | undefined> {
  return (await listCredentials(api)).find((c) => c.client_id === id);
}

/**
 * What changed on a credential outside Pulumi ([] when nothing), for `pulumi-cdc drift`: its roles,
 * and a description other than the one the stack holds. As for tags, a plain preview compares the
 * program with the stack only, so `pulumi up --refresh` puts such a change back.
 */
export function credentialFindings(live: ClientCredential | undefined, recorded: Partial<ClientCredentialOutputs>): string[] {
  if (!live) return ["was deleted: run `pulumi refresh` to drop it from the stack, then `pulumi up` to create a new one (with a new secret)"];
  const findings: string[] = [];
  const roles = live.roles.map((r) => String(r.id));
  if (Array.isArray(recorded.roleIds) && !sameMembers(roles, recorded.roleIds)) findings.push(`roles were changed to [${roles.join(", ")}]`);
  if (recorded.description && live.description !== recorded.description) findings.push(`description was changed to ${JSON.stringify(live.description)}`);
  return findings;
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
  await unlessGone(() => api.delete("/auth/client-credentials/{id}", { params: { id }, schema: anyJsonSchema }));
}

/** The list and PATCH answer the secret masked (`abc******xyz`), never as it is. */
function isMaskedSecret(secret: string): boolean {
  return isMasked(secret) || /\*{3,}/.test(secret);
}

/**
 * An answer the server sent (a 5xx, or a 429 after the client's retries) or a connection that
 * never carried the request: the server is done with it, so the listing right after says for
 * certain whether it created anything. Otherwise the answer was lost on the way back.
 */
function serverIsDone(err: unknown): boolean {
  return !(err instanceof ConnectionError) || BEFORE_SEND_CODES.has(err.code);
}

/**
 * The client stopped waiting for the answer: the server was slow, and may still be making the
 * credential after any number of looks, so nothing can prove a resend safe. (A connection the
 * other side closed or reset is different: the request died with it or was done by then.)
 */
function mayStillRun(err: unknown): boolean {
  return err instanceof ConnectionError && (err.code === "UND_ERR_HEADERS_TIMEOUT" || err.code === "ETIMEDOUT");
}

/** Looks after a lost answer, with the back-off between them, for a request that was cut off mid-way to land. */
const LOST_ANSWER_LOOKS = 3;

// Credentials have no unique name: a lost create is recognised as "a new matching credential
// since just before it", so two creates of this process must never overlap in that window.
let createQueue: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(fn: () => Promise<T>): Promise<T> {
  const run = createQueue.then(fn, fn);
  createQueue = run.catch(() => undefined);
  return run;
}

/** A description set once stays (the API cannot clear it): only a new non-empty one is a change. */
function descriptionChanged(olds: Partial<ClientCredentialInputs>, news: ClientCredentialInputs): boolean {
  return !!news.description && news.description !== (olds.description ?? "");
}

/**
 * Roles and description change in place (PATCH), keeping the client id and the secret, which
 * the API reveals only at creation and the state keeps as a Pulumi secret; only the service
 * replaces the credential.
 */
export class ClientCredentialProvider {
  /** `pulumi-cdc import`: every credential, which a written program only lists (their secrets are never shown again). */
  listForImport(api: CdcClient, _listing: ImportListing): Promise<ClientCredential[]> {
    return api.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) });
  }

  /** `pulumi-cdc drift`: whether the object is gone, and what changed outside Pulumi, in the sentences a plain preview prints. */
  async findDrift(api: CdcClient, id: string, recorded: Record<string, unknown>): Promise<DriftFindings> {
    const live = await findCredential(api, id);
    return { gone: live === undefined, findings: credentialFindings(live, recorded) };
  }

  /** Read by the unknowns wrapper: a pending service id plans a replacement. */
  readonly replaceOnChange = CLIENT_CREDENTIAL.replaceOnChange;

  async check(_olds: unknown, news: Record<string, unknown>) {
    const parsed = CLIENT_CREDENTIAL.inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const { roleIds, description, serviceId, adoptId, secret } = parsed.data;
    const inputs: ClientCredentialInputs = {
      roleIds,
      ...(description !== undefined ? { description } : {}),
      ...(serviceId !== undefined ? { serviceId } : {}),
      ...(adoptId !== undefined ? { adoptId } : {}),
      ...(secret !== undefined ? { secret } : {}),
    };
    // The API makes a new credential's secret: one the program gives is an adopted credential's.
    const failures =
      secret !== undefined && adoptId === undefined
        ? [{ property: "secret", reason: "is set only with adoptId (an existing credential's secret): the API makes a new credential's secret. Remove secret, or set adoptId to the credential's client id" }]
        : [];
    return { inputs, failures };
  }

  async diff(_id: string, olds: ClientCredentialOutputs, news: ClientCredentialInputs) {
    const diffs = [
      ...(!sameMembers(olds.roleIds, news.roleIds) ? ["roleIds"] : []),
      ...(descriptionChanged(olds, news) ? ["description"] : []),
      // An adopted credential's secret, given or changed in the program: the stack's output follows it.
      ...(news.secret !== undefined && !isUnknown(news.secret) && news.secret !== olds.secret ? ["secret"] : []),
    ];
    const replaces = (olds.serviceId ?? "") !== (news.serviceId ?? "") ? ["serviceId"] : [];
    return { changes: diffs.length + replaces.length > 0, replaces, diffs: [...diffs, ...replaces] };
  }

  /**
   * `pulumi-cdc recover`: a credential has no name, and its secret is shown only in the create's
   * answer, which died with the run. A credential of these roles, description and service made
   * by Pulumi that no stack holds and no other create of this recover claimed is that lost one:
   * deleted, and the next `pulumi up` makes a new one. Several cannot be told apart: none is deleted.
   */
  async findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    const roleIds = Array.isArray(inputs.roleIds) && inputs.roleIds.every((r) => typeof r === "string") ? (inputs.roleIds as string[]) : undefined;
    const description = inputs.description === undefined ? "" : plainString(inputs.description);
    const serviceId = inputs.serviceId === undefined ? "" : plainString(inputs.serviceId);
    if (roleIds === undefined || description === undefined || serviceId === undefined) {
      return { unsettled: "its inputs are not readable in the state; no credential was deleted: check `GET /auth/client-credentials` for one in no stack, delete it, then run recover again" };
    }
    const all = await api.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) });
    const candidates = all.filter(
      (c) =>
        !context.claimed.has(c.client_id) &&
        !context.tracked(c.client_id) &&
        (c.created_from ?? api.createdFrom) === api.createdFrom &&
        (c.description ?? "") === description &&
        (c.service_id ?? "") === serviceId &&
        sameMembers(c.roles.map((r) => r.id), roleIds),
    );
    if (candidates.length === 0) return { absent: "no credential was created: `pulumi up` creates it" };
    if (candidates.length > 1) {
      return {
        unsettled: `${candidates.length} credentials with these roles and description are in no stack (${candidates.map((c) => c.client_id).join(", ")}); which one this run made cannot be told, so none was deleted: delete the ones no one uses, then run recover again`,
      };
    }
    const lost = candidates[0]!.client_id;
    context.claimed.add(lost);
    return { lost: [lost], what: `credential ${lost} was created but its secret was lost with the run: it is deleted, and \`pulumi up\` creates a new one` };
  }

  async create(inputs: ClientCredentialInputs) {
    if (inputs.adoptId) return this.adopt(inputs);
    return oneAtATime(() => this.createOne(inputs));
  }

  /**
   * Takes over an existing credential: nothing is written when its roles and description equal
   * the program's, and one update otherwise. Its secret is the program's `secret` where it gives
   * one (the API never shows it again, so it cannot be checked), and absent otherwise.
   */
  private async adopt(inputs: ClientCredentialInputs) {
    const id = inputs.adoptId!;
    const live = await findCredential(client(), id);
    if (!live) throw new Error(`adoptId: there is no client credential "${id}" to adopt; check the client id, or remove adoptId to create a new one`);
    if ((live.service_id ?? "") !== (inputs.serviceId ?? "")) {
      throw new Error(
        `adoptId: client credential "${id}" belongs to ${live.service_id ? `service "${live.service_id}"` : "no service"}, and a credential's service cannot change: ` +
          `set serviceId to ${live.service_id ? `"${live.service_id}"` : "nothing (remove it)"} to adopt it`,
      );
    }
    const held: ClientCredentialInputs = { ...inputs, roleIds: live.roles.map((r) => String(r.id)), ...(live.description ? { description: live.description } : {}) };
    if (sameMembers(held.roleIds, inputs.roleIds) && !descriptionChanged(held, inputs)) return { id, outs: outputs(live, held, inputs.secret) };
    return { id, outs: (await this.update(id, outputs(live, held, inputs.secret), inputs)).outs };
  }

  /**
   * The secret is in the create's answer only, and a credential has no name to find it by, so a
   * create is never sent again blindly: after a failure the listing is compared with the one
   * taken just before. A credential the failed attempt made is useless (its secret went with the
   * answer) and is deleted before the create is sent again; when the server answered, or the
   * connection was cut, and the listing (looked at a few times for a cut one) shows nothing, the
   * create is sent again; when the client stopped waiting (a timeout) and nothing shows up, the
   * request may still be running, so the run stops with what to check instead of risking a
   * second credential.
   */
  private async createOne(inputs: ClientCredentialInputs) {
    const api = client();
    const policy = api.retryPolicy;
    const budget = currentBudget();
    const failures: string[] = [];
    const deleted: string[] = [];
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
        const stop = (why: string) => {
          const note = deleted.length > 0 ? ` Credentials earlier attempts created were deleted again, their secrets lost with the answers: ${deleted.join(", ")}.` : "";
          return new Error(`client credential: create failed ${attempt} ${attempt === 1 ? "time" : "times"} (${failures.join("; ")}); ${why}.${note}`);
        };
        let lost = await lostCredentials(api, before, inputs);
        for (let look = 1; lost.length === 0 && !serverIsDone(err) && look < LOST_ANSWER_LOOKS; look++) {
          await delay(backoffDelay(look, policy));
          lost = await lostCredentials(api, before, inputs);
        }
        if (lost.length === 0 && mayStillRun(err)) {
          throw stop(
            `its answer did not come in time and no new credential with these roles shows up, but the API may still be making one, so it was not sent again. ` +
              `Run \`pulumi up\` again; if a credential made by ${api.createdFrom} with these roles${inputs.description ? ` and description "${inputs.description}"` : ""} then appears in GET /auth/client-credentials beside the new one, delete the one no stack holds (DELETE /auth/client-credentials/<client_id>)`,
          );
        }
        for (const c of lost) {
          await deleteCredential(api, c.client_id);
          deleted.push(c.client_id);
        }
        const wait = backoffDelay(attempt, policy);
        if (attempt >= policy.maxAttempts || (budget !== undefined && !budget.allows(wait))) {
          throw stop(`no credential is left behind. Run \`pulumi up\` again when the API is back`);
        }
        budget?.record("create", "lost answer");
        await delay(wait);
        continue;
      }
      if (!cred.secret || isMaskedSecret(cred.secret)) {
        await deleteCredential(api, cred.client_id).catch(() => undefined);
        throw new Error(`the API created client credential ${cred.client_id} but returned no secret, so it was deleted again; run \`pulumi up\` to retry`);
      }
      return { id: cred.client_id, outs: outputs(cred, inputs, cred.secret) };
    }
  }

  /**
   * PATCH always sends the roles (the API wants them non-empty) and the description only when
   * there is one: it cannot be cleared, so one removed from the program stays, and stays in the
   * outputs, where the next diff finds it equal.
   */
  async update(id: string, olds: ClientCredentialOutputs, news: ClientCredentialInputs) {
    const api = client();
    // Only an adopted credential's secret changed: the stack's, which the API never holds again.
    const patch = !sameMembers(olds.roleIds, news.roleIds) || descriptionChanged(olds, news);
    try {
      const answer = patch
        ? await api.patch("/auth/client-credentials/{id}", {
            params: { id },
            body: { role_ids: news.roleIds, ...(news.description ? { description: news.description } : {}) },
            // It sets values: sending it twice leaves what sending it once does.
            idempotent: true,
            schema: credentialOrEmpty,
          })
        : undefined;
      const cred = answer ?? (await findCredential(api, id));
      if (!cred) throw new NotFoundError({ method: "GET", path: "/auth/client-credentials", status: 404, detail: `client credential ${id} is not in the listing` });
      const kept: ClientCredentialInputs = { ...news, ...(!news.description && cred.description ? { description: cred.description } : {}) };
      return { outs: outputs(cred, kept, news.secret ?? olds.secret) };
    } catch (err) {
      if (isNotFound(err)) {
        throw new Error(`client credential ${id} no longer exists: it was deleted outside Pulumi. Run \`pulumi refresh\`, then \`pulumi up\` to create a new one (with a new secret).`);
      }
      throw err;
    }
  }

  async read(id: string, props: ClientCredentialOutputs) {
    const cred = await findCredential(client(), id);
    if (!cred) return { id: "", props: {} };
    const realigned: ClientCredentialInputs = {
      roleIds: cred.roles.map((r) => String(r.id)),
      ...(cred.description ? { description: cred.description } : {}),
      ...(cred.service_id ? { serviceId: cred.service_id } : {}),
      ...(props.adoptId ? { adoptId: props.adoptId } : {}),
    };
    // The API never shows the secret again: keep the one from creation. An imported credential
    // has none (its secret stays with whoever created it): the output is left out, not faked.
    return { id, props: outputs(cred, realigned, props.secret), inputs: realigned };
  }

  async delete(id: string) {
    await deleteCredential(client(), id);
  }
}
