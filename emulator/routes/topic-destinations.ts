import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { isApiSource } from "../../catalogue/index.js";
import type { EmulatorContext } from "../context.js";
import { ApiError, notFound } from "../errors.js";
import { randomHex } from "../crypto.js";
import type { Store, TopicBindingRecord } from "../store.js";
import { sourceTopics } from "../topology.js";
import { validateRequest } from "../validation.js";

/**
 * API sources deliver by sending topics to destinations (`/topics/{topic_id}/destinations/{destination_id}`),
 * not through pipelines. The platform keeps one binding per (source, destination), shared by every
 * topic of the source sent there: detaching one topic leaves the others. Attaching is idempotent
 * and works while the source is still Pending (no wait for Active); only API sources may attach.
 */

const pathSchema = z.object({ topic_id: z.string().min(1).max(400), destination_id: z.string().min(1) });

function render(binding: TopicBindingRecord) {
  return { binding_id: binding.id, source_id: binding.source_id, destination_id: binding.destination_id, topic_ids: [...binding.topic_ids] };
}

function bindingOf(store: Store, sourceId: string, destinationId: string): TopicBindingRecord | undefined {
  return Object.values(store.data.topic_bindings).find((b) => b.source_id === sourceId && b.destination_id === destinationId);
}

/** The API source that owns a topic id (`source_<id>.<connector>.<resource>`), or the reason there is none. */
function ownerOf(store: Store, topicId: string) {
  const match = /^source_([^.]+)\.(.+)$/.exec(topicId);
  const source = match ? store.data.sources[match[1]!] : undefined;
  if (!source) throw notFound(`Topic '${topicId}' not found: no source owns it`);
  if (!isApiSource(source.connector)) throw new ApiError(400, "Send-to-destination is available for API sources only");
  if (!sourceTopics(source).includes(match![2]!)) throw notFound(`Topic '${topicId}' not found: source '${source.name}' has no such resource`);
  return source;
}

/** The binding that sends a topic to a destination, or the platform's 404 when none does. */
function sentTo(store: Store, topicId: string, destinationId: string): TopicBindingRecord {
  const source = ownerOf(store, topicId);
  const binding = bindingOf(store, source.id, destinationId);
  if (!binding || !binding.topic_ids.includes(topicId)) throw notFound(`Topic '${topicId}' is not sent to destination '${destinationId}'.`);
  return binding;
}

export function registerTopicDestinationRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const destinationOf = (id: string) => {
    const destination = store.data.destinations[id];
    if (!destination) throw notFound(`Destination '${id}' not found`);
    return destination;
  };

  app.put("/topics/:topic_id/destinations/:destination_id", { config: { permission: "topics:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema });
    const source = ownerOf(store, path.topic_id);
    destinationOf(path.destination_id);
    let binding = bindingOf(store, source.id, path.destination_id);
    if (!binding) {
      binding = { id: `bnd_${randomHex(8)}`, source_id: source.id, destination_id: path.destination_id, topic_ids: [] };
      store.data.topic_bindings[binding.id] = binding;
    }
    if (!binding.topic_ids.includes(path.topic_id)) binding.topic_ids.push(path.topic_id);
    store.markDirty();
    return render(binding);
  });

  app.get("/topics/:topic_id/destinations/:destination_id", { config: { permission: "topics:read" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema });
    return render(sentTo(store, path.topic_id, path.destination_id));
  });

  app.delete("/topics/:topic_id/destinations/:destination_id", { config: { permission: "topics:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema });
    const binding = sentTo(store, path.topic_id, path.destination_id);
    binding.topic_ids = binding.topic_ids.filter((t) => t !== path.topic_id);
    // The last topic gone, the binding goes with it.
    if (binding.topic_ids.length === 0) delete store.data.topic_bindings[binding.id];
    store.markDirty();
    return { detached: true };
  });
}

/** Bindings die with their source or destination. */
export function dropBindingsOf(store: Store, kind: "source" | "destination", id: string): void {
  for (const binding of Object.values(store.data.topic_bindings)) {
    if ((kind === "source" ? binding.source_id : binding.destination_id) === id) delete store.data.topic_bindings[binding.id];
  }
}
