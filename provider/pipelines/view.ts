import type { LivePipeline } from "./schemas.js";
import { regroup, topicSet } from "./topics.js";

/**
 * The live pipeline in the program's terms: ids, topic names as sets, transforms regrouped. The
 * pipeline's rules compare it with what Pulumi recorded; an import writes a program of it.
 */
export function livePipelineView(live: LivePipeline) {
  const sourceId = live.source?.id ?? "";
  return {
    name: live.name ?? "",
    sourceId,
    destinationId: live.destination?.id ?? "",
    sourceTopics: [...topicSet(live.source?.topics ?? [], { sourceId })],
    transforms: regroup(live.transforms, sourceId),
    snapshotNewTables: live.snapshot_new_tables ?? false,
    tags: live.tags,
  };
}
