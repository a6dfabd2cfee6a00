import { z } from "zod";
import { isApiSource } from "../../catalogue/index.js";
import { failuresFromZod } from "../check.js";
import { anyJsonSchema, isNotFound, type CdcClient, type DestinationConnector, type SourceConnector } from "../client/index.js";
import { client } from "../context.js";
import type { DriftFindings, RecoverContext, Recovered } from "../kinds/spec.js";
import { bindingId, TOPIC_DESTINATION, type ImportedBinding } from "../kinds/topicDestination.js";
import { liveOutputs } from "../kinds/outputs.js";
import { plainString, UNREADABLE } from "./recovered.js";
import type { ImportListing } from "../kinds/imported.js";
import { reportDrift } from "../drift.js";
import { containsUnknown, isUnknown, withoutUndefined } from "../normalize.js";
import { Turns } from "../turns.js";

/**
 * One topic of an API source sent to a destination (`/topics/{topic_id}/destinations/{destination_id}`).
 * API sources deliver through these bindings instead of pipelines. The platform keeps one
 * binding per (source, destination), shared by every topic of it sent there; this resource is
 * one topic's membership of it.
 */
export interface TopicDestinationInputs {
  /** An API source's topic, `source_<source id>.<connector>.<resource>`. */
  topicId: string;
  destinationId: string;
}

export interface TopicDestinationOutputs extends TopicDestinationInputs {
  /** The platform's binding of the (source, destination) pair, shared by its topics. */
  bindingId: string;
  sourceId: string;
}

const path = "/topics/{topic}/destinations/{destination}";

/** The answer of PUT and GET; some deployments wrap it in `result`. */
const bindingFields = z
  .object({
    binding_id: z.union([z.string(), z.number()]).transform(String).nullish(),
    source_id: z.union([z.string(), z.number()]).transform(String).nullish(),
    destination_id: z.union([z.string(), z.number()]).transform(String).nullish(),
    topic_ids: z.array(z.string()).nullish(),
  })
  .loose();
export const bindingSchema = z.union([z.object({ result: bindingFields }).transform((r) => r.result), bindingFields]);
export type LiveBinding = z.output<typeof bindingSchema>;


export { bindingId };

/**
 * The platform applies a link as a read-modify-write of the binding its source shares with the
 * destination, so two links written at once can drop one's topic. The links of one destination
 * are therefore attached and detached one at a time in a run (as the vendor's provider does);
 * links to other destinations go on in parallel. Keyed by destination id.
 */
export const LINK_TURNS = new Turns();

export function parseBindingId(id: string): TopicDestinationInputs {
  const parts = id.split("|");
  if (parts.length !== 2 || !parts[0] || !parts[1]) {
    throw new Error(`"${id}" is not a topic destination id: expected <topic_id>|<destination_id>, e.g. source_<id>.hubspot.contacts|<destination id>`);
  }
  return { topicId: parts[0], destinationId: parts[1] };
}

/** The two ends as recorded, or from the id when nothing is (`pulumi import`). */
function endsOf(id: string, props: Partial<TopicDestinationInputs> | undefined): TopicDestinationInputs {
  return props?.topicId && props.destinationId ? { topicId: props.topicId, destinationId: props.destinationId } : parseBindingId(id);
}

/** The binding as the API has it; undefined when the topic is not sent to the destination (404). */
export async function getTopicDestination(api: CdcClient, inputs: TopicDestinationInputs): Promise<LiveBinding | undefined> {
  try {
    return await api.get(path, { params: { topic: inputs.topicId, destination: inputs.destinationId }, schema: bindingSchema });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** What changed outside Pulumi ([] when nothing): the one rule for diff and `pulumi-cdc drift`. */
export function topicDestinationFindings(live: LiveBinding | undefined, recorded: Partial<TopicDestinationInputs>): string[] {
  if (!live) return [`topic "${recorded.topicId}" is no longer sent to destination ${recorded.destinationId} (detached outside Pulumi)`];
  return [];
}

function outputs(live: LiveBinding, inputs: TopicDestinationInputs): TopicDestinationOutputs {
  const sourceId = live.source_id ?? /^source_([^.]+)\./.exec(inputs.topicId)?.[1] ?? "";
  return withoutUndefined({ ...(liveOutputs(TOPIC_DESTINATION, live) as object), ...inputs, bindingId: live.binding_id ?? "", sourceId });
}

/** Sends an API source's topic to a destination; both ids replace on change, and a detach in the console is drift. */
export class TopicDestinationProvider {
  /**
   * `pulumi-cdc import`: which topics of the API sources are sent to which destinations. The API
   * lists no bindings, so each (topic, destination) pair is asked until one answers: its binding
   * names every topic of that source sent there. Only API sources deliver this way, so a tenant
   * without any asks nothing.
   */
  async listForImport(api: CdcClient, listing: ImportListing): Promise<ImportedBinding[]> {
    const [sources, destinations] = (await Promise.all([listing.objects("Source"), listing.objects("Destination")])) as [SourceConnector[], DestinationConnector[]];
    const pairs = sources
      .filter((s) => s.id && isApiSource(s.connector ?? ""))
      .flatMap((s) => destinations.filter((d) => d.id).map((d) => ({ source: s, destinationId: d.id! })));
    const found = await Promise.all(
      pairs.map(async ({ source, destinationId }) => {
        for (const topicId of source.topic_ids ?? []) {
          const live = await getTopicDestination(api, { topicId, destinationId });
          if (live) return (live.topic_ids ?? [topicId]).map((t) => ({ topicId: t, sourceId: source.id!, destinationId }));
        }
        return [];
      }),
    );
    return found.flat();
  }

  /** `pulumi-cdc drift`: whether the object is gone, and what changed outside Pulumi, in the sentences a plain preview prints. */
  async findDrift(api: CdcClient, id: string): Promise<DriftFindings> {
    // Detached outside Pulumi is drift, not a deletion: `pulumi up` attaches it again.
    const ends = parseBindingId(id);
    return { gone: false, findings: topicDestinationFindings(await getTopicDestination(api, ends), ends) };
  }

  readonly replaceOnChange = TOPIC_DESTINATION.replaceOnChange;

  async check(_olds: Partial<TopicDestinationInputs>, news: Record<string, unknown>) {
    const parsed = TOPIC_DESTINATION.inputSchema.safeParse(news);
    if (!parsed.success) return { inputs: news, failures: failuresFromZod(parsed.error) };
    return { inputs: { topicId: parsed.data.topicId, destinationId: parsed.data.destinationId }, failures: [] };
  }

  async diff(_id: string, olds: TopicDestinationOutputs, news: TopicDestinationInputs) {
    const replaces = this.replaceOnChange.filter((k) => olds[k] !== news[k]);
    let drifted = false;
    if (replaces.length === 0 && !containsUnknown(news)) {
      const findings = topicDestinationFindings(await getTopicDestination(client(), news), olds);
      drifted = findings.length > 0;
      reportDrift(`topic destination "${bindingId(news)}"`, findings);
    }
    // Another binding is attached before the old one is detached: a topic is never left unsent.
    return { changes: replaces.length > 0 || drifted, replaces: [...replaces], deleteBeforeReplace: false };
  }

  /** `pulumi-cdc recover`: a binding is named by its two ends; attached means the interrupted PUT went through. */
  async findCreated(api: CdcClient, inputs: Record<string, unknown>, context: RecoverContext): Promise<Recovered> {
    const topicId = plainString(inputs.topicId);
    const destinationId = plainString(inputs.destinationId);
    if (topicId === undefined || destinationId === undefined) return { unsettled: UNREADABLE };
    const id = bindingId({ topicId, destinationId });
    if (!(await getTopicDestination(api, { topicId, destinationId }))) {
      return { absent: `topic "${topicId}" is not sent to destination ${destinationId}: the attach never happened; \`pulumi up\` attaches it` };
    }
    if (context.tracked(id)) return { foreign: `"${id}" is already in the stack under another resource` };
    return { found: id, what: `found topic "${topicId}" sent to destination ${destinationId}: taken into the stack` };
  }

  async create(inputs: TopicDestinationInputs) {
    const api = client();
    return LINK_TURNS.run(inputs.destinationId, async () => {
      // A topic already sent there (a tenant taken over by `pulumi-cdc import`) is adopted with no write.
      const live = await getTopicDestination(api, inputs);
      return { id: bindingId(inputs), outs: live ? outputs(live, inputs) : await this.attach(api, inputs) };
    });
  }

  async read(id: string, props: Partial<TopicDestinationOutputs>) {
    const inputs = endsOf(id, props);
    const live = await getTopicDestination(client(), inputs);
    if (!live) return { id: "", props: {} };
    return { id: bindingId(inputs), props: outputs(live, inputs), inputs };
  }

  /** Only a detach made outside Pulumi comes here (both ids replace): it is attached again. */
  async update(_id: string, _olds: TopicDestinationOutputs, news: TopicDestinationInputs) {
    return { outs: await LINK_TURNS.run(news.destinationId, () => this.attach(client(), news)) };
  }

  async delete(id: string, props?: Partial<TopicDestinationOutputs>) {
    if (isUnknown(id)) return;
    const inputs = endsOf(id, props);
    await LINK_TURNS.run(inputs.destinationId, async () => {
      try {
        await client().delete(path, { params: { topic: inputs.topicId, destination: inputs.destinationId }, schema: anyJsonSchema });
      } catch (err) {
        // Already detached (in the console, or with its source or destination): nothing to do.
        if (!isNotFound(err)) throw err;
      }
    });
  }

  private async attach(api: CdcClient, inputs: TopicDestinationInputs): Promise<TopicDestinationOutputs> {
    const live = await api.put(path, { params: { topic: inputs.topicId, destination: inputs.destinationId }, schema: bindingSchema });
    return outputs(live, inputs);
  }
}
