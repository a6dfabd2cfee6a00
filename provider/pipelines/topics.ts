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

/** Names in quotes, for messages. */
function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(", ");
}

/**
 * Why a pipeline's `transforms[i].topics` cannot be sent as written, told apart by what the
 * transform has: no topics at all (yet), or topics among which none (or not all) of the names
 * given are. Undefined when every name is one of its topics, or when the transform is unknown.
 * Names it does not have may still be the source's own (unwind sends them so), so this says why
 * only once the API has refused the write.
 */
export function transformTopicsProblem(
  groups: readonly TransformTopics[],
  transforms: ReadonlyMap<string, { name?: string | null; topics: readonly string[] } | undefined>,
  sourceId: string,
): string | undefined {
  for (const [i, g] of groups.entries()) {
    const t = transforms.get(g.id);
    if (!t) continue;
    const given = [...topicSet(g.topics, { sourceId, transformId: g.id })];
    const missing = given.filter((name) => !t.topics.includes(name));
    if (missing.length === 0) continue;
    const what = `transform "${t.name ?? g.id}" (${g.id})`;
    if (t.topics.length === 0) {
      return (
        `transforms[${i}].topics: ${what} has no topics at all yet, so ${quoted(missing)} ${missing.length === 1 ? "is not one" : "are not"} of them. ` +
        "A transform gets its topics from the source topics its transforms.input.topic.pattern matches: check that pattern against the source's topics. " +
        "A transform created before its source's topics existed has none until they do: give the Transform `dependsOn: [source]`, then list the topics or pass its `topics` output"
      );
    }
    const its = `its topics are ${quoted(t.topics)}`;
    if (missing.length === given.length) {
      return `transforms[${i}].topics: none of ${quoted(given)} is one of the topics of ${what}; ${its}: list some of those, or pass the Transform's \`topics\` output`;
    }
    return `transforms[${i}].topics: ${quoted(missing)} ${missing.length === 1 ? "is not one" : "are not"} of the topics of ${what}; ${its}: drop ${missing.length === 1 ? "it" : "them"}, or fix the names`;
  }
  return undefined;
}
