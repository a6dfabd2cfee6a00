import { failuresFromZod } from "../check.js";
import { anyJsonSchema, agentSchema, isNotFound, type Agent, type CdcClient } from "../client/index.js";
import { client } from "../context.js";
import { AGENT } from "../kinds/agent.js";
import { liveOutputs } from "../kinds/outputs.js";
import type { DriftFindings, RecoverContext, Recovered } from "../kinds/spec.js";
import type { ImportListing } from "../kinds/imported.js";
import { reportDrift } from "../drift.js";
import { containsUnknown, sameMembers } from "../normalize.js";
import { createNamed } from "./createNamed.js";
import { plainString, recoverAmongNamed, type NamedList } from "./recovered.js";
import { unlessGone } from "./gone.js";
import { PartialFailure, withProviderKey } from "./failure.js";
import { listIfServed } from "./listing.js";
import { resolveName } from "./naming.js";

export interface AgentInputs {
  logicalName?: string;
  autonamed?: boolean;
  name: string;
  instructions: string;
  description?: string;
  llmConnectionId: string;
  httpConnectionIds: string[];
  /** The desired state: running (deployed) or not (a draft, or cancelled). */
  deployed: boolean;
  /** The id of an existing agent to take over instead of creating one. */
  adoptId?: string;
}

export interface AgentOutputs extends AgentInputs {
  /** The API's status: draft, running, cancelled. */
  status: string;
  /** e.g. `llm_connection_missing` after its LLM connection was deleted. */
  flags: string[];
  createdFrom: string;
}


const path = "/agents/{id}";

export async function getLive(api: CdcClient, agentId: string): Promise<Agent | undefined> {
  const live = await unlessGone(() => api.get(path, { params: { id: agentId }, schema: agentSchema }));
  // A soft-deleted agent is a tombstone: for Pulumi it is gone.
  return live?.status === "deleted" ? undefined : live;
}

/** The lifecycle calls from a live status to the desired state, like a connector's pause and resume. */
export function agentTransitions(status: string | null | undefined, deployed: boolean): Array<"deploy" | "cancel"> {
  if (deployed) return status === "running" ? [] : ["deploy"];
  return status === "running" ? ["cancel"] : [];
}

/** What adopting `live` would PATCH (its status aside: deploy and cancel settle it); [] when nothing. */
export function agentAdoptionChanges(live: Agent, inputs: AgentInputs): string[] {
  return [
    ...((live.name ?? "") !== inputs.name ? ["name"] : []),
    ...((live.instructions ?? "") !== inputs.instructions ? ["instructions"] : []),
    ...((live.description ?? "") !== (inputs.description ?? "") ? ["description"] : []),
    ...((live.llm_connection_id ?? "") !== inputs.llmConnectionId ? ["llmConnectionId"] : []),
    ...(!sameMembers(live.http_connection_ids, inputs.httpConnectionIds) ? ["httpConnectionIds"] : []),
  ];
}

/** What changed on an agent outside Pulumi ([] when nothing): the one rule for diff and `pulumi-cdc drift`. */
export function agentFindings(live: Agent | undefined, recorded: Partial<AgentOutputs>): string[] {
  if (!live) return ["was deleted: run `pulumi refresh` to drop it from the stack, then `pulumi up` to create it again"];
  const findings: string[] = [];
  const deployed = recorded.deployed ?? true;
  if (live.instructions !== recorded.instructions) findings.push("instructions were changed");
  if (live.name && live.name !== recorded.name) findings.push(`was renamed to "${live.name}"`);
  if (live.llm_connection_id !== recorded.llmConnectionId) findings.push(`uses LLM connection ${live.llm_connection_id}, not ${recorded.llmConnectionId}`);
  if (!sameMembers(live.http_connection_ids, recorded.httpConnectionIds ?? [])) findings.push(`uses HTTP connections [${live.http_connection_ids.join(", ")}]`);
  if (agentTransitions(live.status, deployed).length > 0) findings.push(`is ${live.status}; the program wants it ${deployed ? "deployed (running)" : "not running"}`);
  if (live.flags.includes("llm_connection_missing")) findings.push("its LLM connection is gone (flag llm_connection_missing)");
  return findings;
}

function outputs(live: Agent, inputs: AgentInputs): AgentOutputs {
  return { ...(liveOutputs(AGENT, live) as Pick<AgentOutputs, "createdFrom">), ...inputs, status: live.status ?? "", flags: live.flags };
}

/** Agents: deploy and cancel are transitions of a desired state; delete is the API's soft delete. */
/** Where agents are listed, and their ids. */
const LISTED: NamedList<typeof agentSchema> = { listPath: "/agents", schema: agentSchema, idOf: (a) => a.job_id };

export class AgentProvider {
  /** `pulumi-cdc import`: every agent not deleted (the API's soft delete keeps them listed), or none when the API has no list of them. */
  async listForImport(api: CdcClient, listing: ImportListing): Promise<Agent[]> {
    return (await listIfServed(api, "/agents", agentSchema, AGENT.plural, listing.note)).filter((a) => a.status !== "deleted");
  }

  /** `pulumi-cdc drift`: whether the object is gone, and what changed outside Pulumi, in the sentences a plain preview prints. */
  async findDrift(api: CdcClient, id: string, recorded: Record<string, unknown>): Promise<DriftFindings> {
    const live = await getLive(api, id);
    return { gone: live === undefined, findings: agentFindings(live, recorded) };
  }

  async check(olds: Partial<AgentInputs>, news: Record<string, unknown>) {
    const parsed = AGENT.inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    const input = parsed.data;
    const inputs: AgentInputs = {
      ...(input.logicalName !== undefined ? { logicalName: input.logicalName } : {}),
      ...resolveName(olds, input, false),
      instructions: input.instructions,
      ...(input.description !== undefined ? { description: input.description } : {}),
      llmConnectionId: input.llmConnectionId,
      httpConnectionIds: [...new Set(input.httpConnectionIds ?? [])],
      deployed: input.deployed ?? true,
      ...(input.adoptId !== undefined ? { adoptId: input.adoptId } : {}),
    };
    return { inputs, failures: [] };
  }

  async diff(agentId: string, olds: AgentOutputs, news: AgentInputs) {
    const changed =
      olds.name !== news.name ||
      olds.instructions !== news.instructions ||
      (olds.description ?? "") !== (news.description ?? "") ||
      olds.llmConnectionId !== news.llmConnectionId ||
      !sameMembers(olds.httpConnectionIds, news.httpConnectionIds) ||
      (olds.deployed ?? true) !== news.deployed;
    let drifted = false;
    if (!containsUnknown(news)) {
      const findings = agentFindings(await getLive(client(), agentId), olds);
      drifted = findings.length > 0;
      reportDrift(`agent "${olds.name}" (${agentId})`, findings);
    }
    return { changes: changed || drifted, replaces: [] as string[] };
  }

  /** `pulumi-cdc recover`: the agent a killed run's create made: the one of its name and instructions Pulumi made that no stack holds. */
  findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    const instructions = plainString(inputs.instructions);
    return recoverAmongNamed(api, context, {
      ...LISTED,
      kind: AGENT,
      name: inputs.name,
      differs: (found) => (instructions !== undefined && found.instructions !== instructions ? "other instructions" : undefined),
    });
  }

  async create(inputs: AgentInputs & { __provider?: string }) {
    const api = client();
    if (inputs.adoptId) return this.adopt(api, inputs);
    let live = await createNamed({
      api,
      what: `agent "${inputs.name}"`,
      ...LISTED,
      name: inputs.name,
      send: () =>
        api.post("/agents", {
          body: {
            name: inputs.name,
            description: inputs.description ?? null,
            instructions: inputs.instructions,
            llm_connection_id: inputs.llmConnectionId,
            http_connection_ids: inputs.httpConnectionIds,
            deploy: inputs.deployed,
            created_from: api.createdFrom,
          },
          schema: agentSchema,
        }),
      differs: (found) => (found.instructions !== inputs.instructions ? "other instructions" : undefined),
    });
    try {
      live = await this.settle(api, live, inputs.deployed);
    } catch (err) {
      throw new PartialFailure(`agent "${inputs.name}"`, live.job_id, withProviderKey(outputs(live, inputs), inputs), err);
    }
    return { id: live.job_id, outs: outputs(live, inputs) };
  }

  async read(agentId: string, props: Partial<AgentOutputs>) {
    const live = await getLive(client(), agentId);
    if (!live) return { id: "", props: {} };
    const realigned: AgentInputs = {
      ...(props.logicalName !== undefined ? { logicalName: props.logicalName } : {}),
      ...(props.autonamed !== undefined ? { autonamed: props.autonamed } : {}),
      name: live.name ?? props.name ?? "",
      instructions: live.instructions ?? props.instructions ?? "",
      ...(live.description ? { description: live.description } : {}),
      llmConnectionId: live.llm_connection_id ?? props.llmConnectionId ?? "",
      httpConnectionIds: live.http_connection_ids,
      deployed: live.status === "running",
    };
    // No recorded instructions: `pulumi import` on the plugin. Its code leaves out what a program
    // leaves unset: no HTTP connections, and deployed (the default).
    if (props.instructions === undefined) {
      const { httpConnectionIds, deployed, ...asProgram } = realigned;
      const inputs = { ...asProgram, ...(httpConnectionIds.length > 0 ? { httpConnectionIds } : {}), ...(deployed ? {} : { deployed }) };
      return { id: agentId, props: outputs(live, realigned), inputs };
    }
    return { id: agentId, props: outputs(live, realigned), inputs: realigned };
  }

  async update(agentId: string, olds: AgentOutputs, news: AgentInputs & { __provider?: string }) {
    const api = client();
    let live: Agent;
    try {
      live = await api.patch(path, {
        params: { id: agentId },
        body: {
          name: news.name,
          description: news.description ?? null,
          instructions: news.instructions,
          llm_connection_id: news.llmConnectionId,
          http_connection_ids: news.httpConnectionIds,
        },
        schema: agentSchema,
        // It sets values: sending it twice leaves what sending it once does.
        idempotent: true,
      });
    } catch (err) {
      if (isNotFound(err)) {
        throw new Error(`agent "${news.name}" (${agentId}) no longer exists: it was deleted outside Pulumi. Run \`pulumi refresh\`, then \`pulumi up\` to create it again.`);
      }
      throw err;
    }
    try {
      live = await this.settle(api, live, news.deployed);
    } catch (err) {
      throw new PartialFailure(`agent "${news.name}"`, agentId, withProviderKey(outputs(live, { ...news, deployed: olds.deployed }), news), err);
    }
    return { outs: outputs(live, news) };
  }

  async delete(agentId: string) {
    // The API's soft delete cancels a running agent first.
    await unlessGone(() => client().delete(path, { params: { id: agentId }, schema: anyJsonSchema }));
  }

  /**
   * Takes over an existing agent. Nothing is written when it already equals the program; a
   * status alone is settled by deploy or cancel; anything else is a PATCH, as an update.
   */
  private async adopt(api: CdcClient, inputs: AgentInputs) {
    const agentId = inputs.adoptId!;
    let live = await getLive(api, agentId);
    if (!live) throw new Error(`adoptId: there is no agent with id "${agentId}" to adopt; check the id, or remove adoptId to create a new one`);
    if (agentAdoptionChanges(live, inputs).length > 0) return { id: agentId, outs: (await this.update(agentId, { ...inputs, deployed: live.status === "running" } as AgentOutputs, inputs)).outs };
    live = await this.settle(api, live, inputs.deployed);
    return { id: agentId, outs: outputs(live, inputs) };
  }

  private async settle(api: CdcClient, live: Agent, deployed: boolean): Promise<Agent> {
    for (const step of agentTransitions(live.status, deployed)) {
      live = await api.put(`${path}/${step}`, { params: { id: live.job_id }, schema: agentSchema });
    }
    return live;
  }
}
