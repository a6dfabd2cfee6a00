import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { isApiSource } from "../../catalogue/index.js";
import type { EmulatorContext } from "../context.js";
import { ApiError, notFound } from "../errors.js";
import { objectId } from "../crypto.js";
import type { Store, TopicBindingRecord } from "../store.js";
import { sourceTopics } from "../topology.js";
import { validateRequest } from "../validation.js";

/**
 * API sources deliver by sending topics to destinations (`/topics/{topic_id}/destinations/{destination_id}`),
 * not through pipelines. The platform keeps one binding per (source, destination), shared by every
 * topic of the source sent there: detaching one topic leaves the others. Attaching is idempotent
 * and works while the source is still Pending (no wait for Active); only API sources may attach.
 * A change is a read-modify-write of the binding (binding-writes.ts): two at once can lose one.
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

  /**
   * Stores the topics a change computed from what it read: a read-modify-write, as the platform
   * applies it (see binding-writes.ts), so a change made meanwhile by another request is lost.
   */
  const write = (sourceId: string, destinationId: string, topics: string[]) => {
    // The source or destination deleted meanwhile took its bindings with it.
    if (!store.data.sources[sourceId]) throw notFound(`Source '${sourceId}' not found`);
    destinationOf(destinationId);
    let binding = bindingOf(store, sourceId, destinationId);
    if (topics.length === 0) {
      if (binding) delete store.data.topic_bindings[binding.id];
    } else {
      if (!binding) {
        binding = { id: objectId(), source_id: sourceId, destination_id: destinationId, topic_ids: [] };
        store.data.topic_bindings[binding.id] = binding;
      }
      binding.topic_ids = topics;
    }
    store.markDirty();
    return binding;
  };

  app.put("/topics/:topic_id/destinations/:destination_id", { config: { permission: "topics:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema });
    const source = ownerOf(store, path.topic_id);
    destinationOf(path.destination_id);
    const current = bindingOf(store, source.id, path.destination_id);
    if (current?.topic_ids.includes(path.topic_id)) return render(current);
    const read = [...(current?.topic_ids ?? []), path.topic_id];
    await ctx.bindingWrites.between();
    return render(write(source.id, path.destination_id, read)!);
  });

  app.get("/topics/:topic_id/destinations/:destination_id", { config: { permission: "topics:read" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema });
    return render(sentTo(store, path.topic_id, path.destination_id));
  });

  app.delete("/topics/:topic_id/destinations/:destination_id", { config: { permission: "topics:write" } }, async (request) => {
    const { path } = validateRequest(request, { path: pathSchema });
    const binding = sentTo(store, path.topic_id, path.destination_id);
    // The last topic gone, the binding goes with it.
    const rest = binding.topic_ids.filter((t) => t !== path.topic_id);
    await ctx.bindingWrites.between();
    write(binding.source_id, binding.destination_id, rest);
    return { detached: true };
  });
}

/** Bindings die with their source or destination. */
export function dropBindingsOf(store: Store, kind: "source" | "destination", id: string): void {
  for (const binding of Object.values(store.data.topic_bindings)) {
    if ((kind === "source" ? binding.source_id : binding.destination_id) === id) delete store.data.topic_bindings[binding.id];
  }
}
