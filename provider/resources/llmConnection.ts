import { failuresFromZod } from "../check.js";
import { anyJsonSchema, llmConnectionSchema, type CdcClient, type LlmConnection } from "../client/index.js";
import { client } from "../context.js";
import type { ImportListing } from "../kinds/imported.js";
import { LLM_CONNECTION } from "../kinds/llmConnection.js";
import { liveOutputs } from "../kinds/outputs.js";
import type { DriftFindings, RecoverContext, Recovered } from "../kinds/spec.js";
import { reportDrift } from "../drift.js";
import { containsUnknown, MASK } from "../normalize.js";
import { newSalt, sameSecret, secretDigest } from "../secret-digest.js";
import { createNamed } from "./createNamed.js";
import { plainString, recoverAmongNamed, type NamedList } from "./recovered.js";
import { unlessGone } from "./gone.js";
import { listIfServed } from "./listing.js";
import { resolveName } from "./naming.js";

export interface LlmConnectionInputs {
  logicalName?: string;
  autonamed?: boolean;
  name: string;
  provider: string;
  model: string;
  /** A Pulumi secret; the API stores it encrypted and never shows it again. */
  apiKey: string;
  baseUrl?: string;
  /** The id of an existing LLM connection to take over instead of creating one. */
  adoptId?: string;
}

/** Outputs carry no API key (see secret-digest.ts), only its digest. */
export interface LlmConnectionOutputs extends Omit<LlmConnectionInputs, "apiKey"> {
  apiKeyDigest: string;
  secretSalt: string;
  createdFrom: string;
}


const path = "/agents/connections/llm/{id}";

export function getLive(api: CdcClient, id: string): Promise<LlmConnection | undefined> {
  return unlessGone(() => api.get(path, { params: { id }, schema: llmConnectionSchema }));
}

function outputs(live: LlmConnection, inputs: Omit<LlmConnectionInputs, "apiKey">, key: { salt: string; digest: string }): LlmConnectionOutputs {
  const { apiKey: _dropped, ...rest } = inputs as LlmConnectionInputs;
  return { ...(liveOutputs(LLM_CONNECTION, live) as Pick<LlmConnectionOutputs, "createdFrom">), ...rest, apiKeyDigest: key.digest, secretSalt: key.salt };
}

/** What differs between an existing LLM connection and the program (the API key aside: the API never shows it); [] when nothing. */
export function llmAdoptionChanges(live: LlmConnection, inputs: LlmConnectionInputs): string[] {
  return (["name", "provider", "model", "baseUrl"] as const).filter((k) => {
    const value = k === "baseUrl" ? live.base_url : live[k];
    return (value ?? "") !== (inputs[k] ?? "");
  });
}

function describeLlm(live: LlmConnection): string {
  return `name "${live.name ?? ""}", provider ${live.provider ?? "(none)"}, model ${live.model ?? "(none)"}${live.base_url ? `, base URL ${live.base_url}` : ""}`;
}

/** What changed on an LLM connection outside Pulumi ([] when nothing): the one rule for diff and `pulumi-cdc drift`. */
export function llmConnectionFindings(live: LlmConnection | undefined, recorded: Partial<LlmConnectionOutputs>): string[] {
  // No update exists, so `pulumi up` replaces it: a new connection, the agents repointed.
  if (!live) return ["was deleted: `pulumi up` creates it again and repoints the agents that use it"];
  const findings: string[] = [];
  if (live.provider && live.provider !== recorded.provider) findings.push(`provider is ${live.provider}`);
  if (live.model && live.model !== recorded.model) findings.push(`model is ${live.model}`);
  return findings;
}

function keyOf(apiKey: string): { salt: string; digest: string } {
  const salt = newSalt();
  return { salt, digest: secretDigest(salt, apiKey) };
}

/**
 * LLM connections have no update: any change replaces, and Pulumi's default order (create the
 * new one, repoint the agents that use it, then delete the old one) keeps those agents working.
 * Names need not be unique, so the replacement can exist beside the original.
 */
/** Where LLM connections are listed, and their ids. */
const LISTED: NamedList<typeof llmConnectionSchema> = { listPath: "/agents/connections/llm", schema: llmConnectionSchema, idOf: (c) => c.connection_id };

export class LlmConnectionProvider {
  /** `pulumi-cdc import`: every LLM connection, or none when the API has no list of them. */
  listForImport(api: CdcClient, listing: ImportListing): Promise<LlmConnection[]> {
    return listIfServed(api, "/agents/connections/llm", llmConnectionSchema, LLM_CONNECTION.plural, listing.note);
  }

  /** `pulumi-cdc drift`: whether the object is gone, and what changed outside Pulumi, in the sentences a plain preview prints. */
  async findDrift(api: CdcClient, id: string, recorded: Record<string, unknown>): Promise<DriftFindings> {
    const live = await getLive(api, id);
    return { gone: live === undefined, findings: llmConnectionFindings(live, recorded) };
  }

  /** Every input is fixed at creation: the API has no update for LLM connections. */
  readonly replaceOnChange = LLM_CONNECTION.replaceOnChange;

  async check(olds: Partial<LlmConnectionInputs>, news: Record<string, unknown>) {
    const parsed = LLM_CONNECTION.inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const input = parsed.data;
    // Names need not be unique, so a replacement keeps an autoname.
    const inputs: LlmConnectionInputs = {
      ...(input.logicalName !== undefined ? { logicalName: input.logicalName } : {}),
      ...resolveName(olds, input, false),
      provider: input.provider,
      model: input.model,
      apiKey: input.apiKey,
      ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {}),
      ...(input.adoptId !== undefined ? { adoptId: input.adoptId } : {}),
    };
    return { inputs, failures: [] };
  }

  async diff(id: string, olds: LlmConnectionOutputs, news: LlmConnectionInputs) {
    // An empty digest: the key of a connection `pulumi import` took in, which Pulumi never saw
    // (the API never shows it). The program's key is taken as the stored one; a replacement for
    // any other reason sends it and records its digest.
    const replaces = this.replaceOnChange.filter((k) =>
      k === "apiKey" ? olds.apiKeyDigest !== "" && !sameSecret(olds.secretSalt, olds.apiKeyDigest, news.apiKey) : (olds[k] ?? "") !== (news[k] ?? ""),
    );
    let drifted = false;
    if (replaces.length === 0 && !containsUnknown(news)) {
      const findings = llmConnectionFindings(await getLive(client(), id), olds);
      drifted = findings.length > 0;
      reportDrift(`LLM connection "${olds.name}" (${id})`, findings);
    }
    return { changes: replaces.length > 0 || drifted, replaces: drifted && replaces.length === 0 ? ["model"] : [...replaces] };
  }

  /** `pulumi-cdc recover`: the connection a killed run's create made: the one of its name, provider and model Pulumi made that no stack holds. */
  findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    const provider = plainString(inputs.provider);
    const model = plainString(inputs.model);
    return recoverAmongNamed(api, context, {
      ...LISTED,
      kind: LLM_CONNECTION,
      name: inputs.name,
      differs: (found) => ((provider !== undefined && found.provider !== provider) || (model !== undefined && found.model !== model) ? `it is ${found.provider} ${found.model}` : undefined),
    });
  }

  async create(inputs: LlmConnectionInputs) {
    const api = client();
    if (inputs.adoptId) {
      // No update exists: an LLM connection is adopted only as it is, with no write. Its API key
      // is never shown, so the program's is taken as the stored one (the stack keeps its digest;
      // a later change of the key in the program replaces the connection).
      const id = inputs.adoptId;
      const live = await getLive(api, id);
      if (!live) throw new Error(`adoptId: there is no LLM connection with id "${id}" to adopt; check the id, or remove adoptId to create a new one`);
      const changes = llmAdoptionChanges(live, inputs);
      if (changes.length > 0) {
        throw new Error(
          `adoptId: LLM connection "${id}" differs from the program in ${changes.join(", ")} (it has ${describeLlm(live)}), and the API cannot update an LLM connection: ` +
            "set these to the connection's values to adopt it, or remove adoptId to create a new one",
        );
      }
      return { id, outs: outputs(live, inputs, keyOf(inputs.apiKey)) };
    }
    const live = await createNamed({
      api,
      what: `LLM connection "${inputs.name}"`,
      ...LISTED,
      name: inputs.name,
      send: () =>
        api.post("/agents/connections/llm", {
          body: {
            name: inputs.name,
            provider: inputs.provider,
            model: inputs.model,
            api_key: inputs.apiKey,
            base_url: inputs.baseUrl ?? null,
            created_from: api.createdFrom,
          },
          schema: llmConnectionSchema,
        }),
      differs: (found) => (found.provider !== inputs.provider || found.model !== inputs.model ? `it is ${found.provider} ${found.model}` : undefined),
    });
    return { id: live.connection_id, outs: outputs(live, inputs, keyOf(inputs.apiKey)) };
  }

  async read(id: string, props: Partial<LlmConnectionOutputs>) {
    const live = await getLive(client(), id);
    if (!live) return { id: "", props: {} };
    const realigned: LlmConnectionInputs = {
      ...(props.logicalName !== undefined ? { logicalName: props.logicalName } : {}),
      ...(props.autonamed !== undefined ? { autonamed: props.autonamed } : {}),
      name: live.name ?? props.name ?? "",
      provider: live.provider ?? props.provider ?? "",
      model: live.model ?? props.model ?? "",
      // Never shown again by the API, and not in the outputs: the digest stands for it. An import
      // writes the mask where the program sets its key (check() refuses the mask itself).
      apiKey: MASK,
      ...(live.base_url ? { baseUrl: live.base_url } : {}),
    };
    const key = props.secretSalt && props.apiKeyDigest ? { salt: props.secretSalt, digest: props.apiKeyDigest } : { salt: newSalt(), digest: "" };
    return { id, props: outputs(live, realigned, key), inputs: realigned };
  }

  async delete(id: string) {
    await unlessGone(() => client().delete(path, { params: { id }, schema: anyJsonSchema }));
  }
}
