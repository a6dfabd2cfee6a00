import { describe, expect, it } from "vitest";
import { alignTopics, alignTransformTopics, regroup, sameTopics, sameTransformTopics, topicName, transformTopicsProblem, unwind } from "../../../provider/pipelines/topics.js";
import { implementationMatches } from "../../../provider/resources/transform.js";

describe("topic names", () => {
  it("takes off only the owner's prefix, so dotted names stay whole (vendor issue #78)", () => {
    expect(topicName("source_s1.public.orders", { sourceId: "s1" })).toBe("public.orders");
    expect(topicName("transform_t1_3.aleks_live.SiteAlert-us-Local", { transformId: "t1" })).toBe("aleks_live.SiteAlert-us-Local");
    expect(topicName("transform_t1.clean.orders", { transformId: "t1" })).toBe("clean.orders");
    expect(topicName("aleks_live.SiteAlert-us-Local", { sourceId: "s1", transformId: "t1" })).toBe("aleks_live.SiteAlert-us-Local");
    expect(topicName("source_other.public.orders", { sourceId: "s1" })).toBe("source_other.public.orders");
  });

  it("compares selected topics as sets of names, whatever the order or prefix", () => {
    expect(sameTopics(["public.orders", "public.users"], ["source_s1.public.users", "source_s1.public.orders"], { sourceId: "s1" })).toBe(true);
    expect(sameTopics(["public.orders"], ["public.orders", "public.orders"], { sourceId: "s1" })).toBe(true);
    expect(sameTopics(["public.orders"], ["source_s1.public.users"], { sourceId: "s1" })).toBe(false);
    expect(sameTopics([], [], {})).toBe(true);
  });

  it("keeps the program's spelling on refresh when it means the same set, else takes the API's names", () => {
    expect(alignTopics(["public.users", "public.orders"], ["source_s1.public.orders", "source_s1.public.users"], { sourceId: "s1" })).toEqual(["public.users", "public.orders"]);
    expect(alignTopics(["public.users"], ["source_s1.public.orders"], { sourceId: "s1" })).toEqual(["public.orders"]);
  });
});

describe("transform entries", () => {
  const entries = [
    { id: "t2", topic: "b.x", topic_id: "transform_t2_1.b.x" },
    { id: "t1", topic: "", topic_id: "transform_t1_4.a.y" },
    { id: "t2", topic: null, topic_id: "source_s1.public.orders" },
    { id: "t1", topic: "a.x", topic_id: "transform_t1_4.a.x" },
    { id: "t1", topic: "" },
  ];

  it("regroups entries per transform even when they are not adjacent, by name, skipping entries without a topic", () => {
    expect(regroup(entries, "s1")).toEqual([
      { id: "t2", topics: ["b.x", "public.orders"] },
      { id: "t1", topics: ["a.y", "a.x"] },
    ]);
  });

  it("compares transforms and their topics as sets: order, grouping and duplicates do not count", () => {
    const live = regroup(entries, "s1");
    expect(sameTransformTopics([{ id: "t1", topics: ["a.x", "a.y"] }, { id: "t2", topics: ["public.orders", "b.x"] }], live, "s1")).toBe(true);
    expect(sameTransformTopics([{ id: "t1", topics: ["a.x"] }, { id: "t1", topics: ["a.y"] }, { id: "t2", topics: ["b.x", "public.orders"] }], live, "s1")).toBe(true);
    expect(sameTransformTopics([{ id: "t1", topics: ["a.x"] }, { id: "t2", topics: ["b.x", "public.orders"] }], live, "s1")).toBe(false);
    expect(sameTransformTopics([], [], "s1")).toBe(true);
    expect(sameTransformTopics([{ id: "t1", topics: ["a.x"] }], [], "s1")).toBe(false);
  });

  it("keeps the program's grouping on refresh when it means the same", () => {
    const written = [{ id: "t1", topics: ["a.x", "a.y"] }, { id: "t2", topics: ["b.x", "public.orders"] }];
    expect(alignTransformTopics(written, regroup(entries, "s1"), "s1")).toEqual(written);
  });

  it("unwinds into one entry per (transform, topic), with the transform's topic id or the source's", () => {
    const transforms = new Map([["t1", { name: "clean", start_time: null, topics: ["a.x"], topic_ids: ["transform_t1_2.a.x"] }]]);
    expect(unwind([{ id: "t1", topics: ["a.x", "public.orders", "a.x"] }], transforms, "s1")).toEqual([
      { id: "t1", name: "clean", start_time: null, topic_id: "transform_t1_2.a.x", topic: "a.x" },
      { id: "t1", name: "clean", start_time: null, topic_id: "source_s1.public.orders", topic: "public.orders" },
    ]);
  });
});

describe("why a transform's topics cannot be sent", () => {
  const none = new Map([["t1", { name: "clean", topics: [] as string[] }]]);
  const some = new Map([["t1", { name: "clean", topics: ["clean.customers", "clean.orders"] }]]);
  it("tells a transform with no topics at all from names that are not among its topics", () => {
    expect(transformTopicsProblem([{ id: "t1", topics: ["clean.orders"] }], none, "s1")).toMatch(
      /^transforms\[0\]\.topics: transform "clean" \(t1\) has no topics at all yet, so "clean\.orders" is not one of them\. .*dependsOn: \[source\]/,
    );
    expect(transformTopicsProblem([{ id: "t1", topics: ["clean.nope", "transform_t1_3.clean.gone"] }], some, "s1")).toBe(
      'transforms[0].topics: none of "clean.nope", "clean.gone" is one of the topics of transform "clean" (t1); its topics are "clean.customers", "clean.orders": list some of those, or pass the Transform\'s `topics` output',
    );
    expect(transformTopicsProblem([{ id: "t1", topics: ["clean.orders", "clean.nope"] }], some, "s1")).toMatch(/^transforms\[0\]\.topics: "clean\.nope" is not one of the topics of transform "clean" \(t1\)/);
  });
  it("has nothing to say when every name is the transform's, or the transform is unknown", () => {
    expect(transformTopicsProblem([{ id: "t1", topics: ["transform_t1_2.clean.orders", "clean.customers"] }], some, "s1")).toBeUndefined();
    expect(transformTopicsProblem([{ id: "t2", topics: ["x"] }], some, "s1")).toBeUndefined();
    expect(transformTopicsProblem([{ id: "t0", topics: ["ok"] }, { id: "t1", topics: ["x"] }], new Map([["t0", { name: "a", topics: ["ok"] }], ...none]), "s1")).toMatch(/^transforms\[1\]\.topics: .* has no topics at all yet/);
  });
});

describe("implementation comparison", () => {
  it("treats keys and nulls the platform adds as no change", () => {
    expect(implementationMatches({ language: "JAVASCRIPT", value_transform: "f" }, { language: "JAVASCRIPT", value_transform: "f", key_transform: null, async_capacity: 10 })).toBe(true);
    expect(implementationMatches({ value_transform: "f" }, { value_transform: "g" })).toBe(false);
    expect(implementationMatches({ inputTables: [{ name: "a" }] }, { inputTables: [{ name: "a", topicMatcherRegex: null }] })).toBe(true);
  });
});
