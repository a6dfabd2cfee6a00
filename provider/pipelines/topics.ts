/**
 * Topic lists compared the way a user means them: as sets of the names they wrote. The API
 * echoes selected source topics as topic ids (`source_<id>.<schema>.<table>`), transform topics
 * as `transform_<id>_<version>.<name>`, reorders entries, splits one transform's topics over
 * non-adjacent entries, and leaves empty lists out; none of that is a change (the vendor's
 * issue #78 and its kin).
 */

/** One transform and the topics of it a pipeline sends to its destination. */
export interface TransformTopics {
  id: string;
  topics: string[];
}

/** A wire entry of a pipeline's `transforms`: one per (transform, topic) pair. */
export interface TransformEntry {
  id: string;
  topic?: string | null;
  topic_id?: string | null;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A topic's name as a user writes it: the prefix of the source (`source_<id>.`) or of the
 * transform (`transform_<id>_<version>.`) that owns it taken off. Only those two prefixes, so a
 * dotted name (`aleks_live.SiteAlert-us-Local`) is never cut short.
 */
export function topicName(topic: string, owners: { sourceId?: string; transformId?: string }): string {
  if (owners.sourceId) {
    const prefix = `source_${owners.sourceId}.`;
    if (topic.startsWith(prefix)) return topic.slice(prefix.length);
  }
  if (owners.transformId) {
    const match = new RegExp(`^transform_${escape(owners.transformId)}(?:_\\d+)?\\.`).exec(topic);
    if (match) return topic.slice(match[0].length);
  }
  return topic;
}

export function topicSet(topics: readonly string[], owners: { sourceId?: string; transformId?: string }): Set<string> {
  return new Set(topics.map((t) => topicName(t, owners)).filter((t) => t !== ""));
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((x) => b.has(x));
}

export function sameTopics(a: readonly string[], b: readonly string[], owners: { sourceId?: string; transformId?: string }): boolean {
  return sameSet(topicSet(a, owners), topicSet(b, owners));
}

/**
 * The API's entries regrouped per transform, whatever their order: entries of one transform
 * need not be adjacent; the pretty `topic` is used, else the name of `topic_id`; entries
 * without a topic are skipped. Transforms keep the order of their first entry.
 */
export function regroup(entries: readonly TransformEntry[], sourceId?: string): TransformTopics[] {
  const groups = new Map<string, string[]>();
  for (const e of entries) {
    const raw = e.topic && e.topic !== "" ? e.topic : e.topic_id ? topicName(e.topic_id, { sourceId, transformId: e.id }) : "";
    const topic = topicName(raw, { sourceId, transformId: e.id });
    if (topic === "") continue;
    const list = groups.get(e.id) ?? [];
    if (!list.includes(topic)) list.push(topic);
    groups.set(e.id, list);
  }
  return [...groups].map(([id, topics]) => ({ id, topics }));
}

/** Transforms with their topics as sets: same transforms, each feeding the same topics. A transform listed twice counts once. */
export function sameTransformTopics(a: readonly TransformTopics[], b: readonly TransformTopics[], sourceId?: string): boolean {
  const sets = (list: readonly TransformTopics[]) => {
    const out = new Map<string, Set<string>>();
    for (const g of list) {
      const set = out.get(g.id) ?? new Set<string>();
      for (const t of topicSet(g.topics, { sourceId, transformId: g.id })) set.add(t);
      out.set(g.id, set);
    }
    for (const [id, set] of out) if (set.size === 0) out.delete(id);
    return out;
  };
  const x = sets(a);
  const y = sets(b);
  return x.size === y.size && [...x].every(([id, set]) => y.has(id) && sameSet(set, y.get(id)!));
}

/** What the program wrote when it means what the API has; otherwise the API's. Keeps refresh from rewriting a user's lists. */
export function alignTopics(written: readonly string[] | undefined, live: readonly string[], owners: { sourceId?: string }): string[] {
  const names = [...topicSet(live, owners)];
  return written && sameTopics(written, names, owners) ? [...written] : names;
}

export function alignTransformTopics(written: readonly TransformTopics[] | undefined, live: readonly TransformTopics[], sourceId?: string): TransformTopics[] {
  return written && sameTransformTopics(written, live, sourceId) ? written.map((g) => ({ id: g.id, topics: [...g.topics] })) : live.map((g) => ({ ...g, topics: [...g.topics] }));
}

/** The wire entries of a pipeline's transforms: one per (transform, topic), with the topic's id when the transform names it. */
export function unwind(
  groups: readonly TransformTopics[],
  transforms: ReadonlyMap<string, { name: string; start_time: string | null; topics: readonly string[]; topic_ids: readonly string[] }>,
  sourceId: string,
): Array<{ id: string; name: string; start_time: string | null; topic_id: string; topic: string }> {
  const out: Array<{ id: string; name: string; start_time: string | null; topic_id: string; topic: string }> = [];
  for (const g of groups) {
    const t = transforms.get(g.id);
    if (!t) continue;
    for (const topic of topicSet(g.topics, { sourceId, transformId: g.id })) {
      const i = t.topics.indexOf(topic);
      // The transform's own id for the topic; a topic it does not name comes straight from the source.
      const topicId = i >= 0 && t.topic_ids[i] ? t.topic_ids[i]! : `source_${sourceId}.${topic}`;
      out.push({ id: g.id, name: t.name, start_time: t.start_time, topic_id: topicId, topic });
    }
  }
  return out;
}
