import { describe, expect, it } from "vitest";
import { CheckpointError, logicalNameOf, trackedConnectors, trackedObjects } from "../../../cli/state.js";

// What `pulumi stack export` prints, trimmed to the fields that matter: a secret is an object
// carrying Pulumi's secret signature and a ciphertext.
const encrypted = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc:def" };

function checkpoint(resources: unknown[]) {
  return { version: 3, deployment: { manifest: {}, resources } };
}

const destination = {
  urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/cdc:Destination::warehouse",
  type: "pulumi-nodejs:dynamic/cdc:Destination",
  id: "d1",
  outputs: {
    name: "warehouse-1a2b",
    connector: "snowflake",
    config: { "snowflake.schema.name": "RAW", "snowflake.private.key": encrypted, "buffer.flush.time": 60, flag: true },
    desiredState: "paused",
    status: "Paused",
    drift: { detected: false, maskedDiff: "", changedKeys: [], baselineTimestamp: "2026-01-01T00:00:00.000Z" },
  },
};

const source = {
  urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/cdc:Source::orders",
  type: "pulumi-nodejs:dynamic/cdc:Source",
  id: "s1",
  outputs: { name: "orders", connector: "postgresql", config: { "database.hostname": "db", "database.password": encrypted }, drift: {} },
};

describe("trackedConnectors", () => {
  it("keeps plain config values, lists encrypted ones as hidden, and carries the destination's baseline", () => {
    const [d] = trackedConnectors(checkpoint([destination]));
    expect(d).toEqual({
      kind: "destination",
      urn: destination.urn,
      id: "d1",
      name: "warehouse-1a2b",
      connector: "snowflake",
      config: { "snowflake.schema.name": "RAW", "buffer.flush.time": 60, flag: true },
      hiddenKeys: ["snowflake.private.key"],
      desiredState: "paused",
      baselineTimestamp: "2026-01-01T00:00:00.000Z",
    });
    // The ciphertext never travels further than the parser.
    expect(JSON.stringify(d)).not.toContain("ciphertext");
  });

  it("returns sources and destinations in state order and ignores every other resource", () => {
    const others = [
      { urn: "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev", type: "pulumi:pulumi:Stack" },
      { urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/cdc:Tag::pii", type: "pulumi-nodejs:dynamic/cdc:Tag", id: "t1", outputs: {} },
      { urn: "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/cdc:ClientCredential::c", type: "pulumi-nodejs:dynamic/cdc:ClientCredential", id: "c1" },
    ];
    const found = trackedConnectors(checkpoint([others[0], source, others[1], destination, others[2]]));
    expect(found.map((r) => [r.kind, r.id])).toEqual([
      ["source", "s1"],
      ["destination", "d1"],
    ]);
    // A source records no baseline, and a missing desiredState means the provider's default.
    expect(found[0]).not.toHaveProperty("baselineTimestamp");
    expect(found[0]!.desiredState).toBe("active");
  });

  it("reads the provider plugin's resources (cdc:index:*) as it reads the dynamic classes'", () => {
    const onPlugin = (r: typeof source | typeof destination) => ({ ...r, type: r.type.replace("pulumi-nodejs:dynamic/cdc:", "cdc:index:"), urn: r.urn.replace("pulumi-nodejs:dynamic/cdc:", "cdc:index:") });
    const found = trackedConnectors(checkpoint([onPlugin(source), onPlugin(destination)]));
    expect(found.map((r) => [r.kind, r.id])).toEqual([
      ["source", "s1"],
      ["destination", "d1"],
    ]);
    expect(found[1]).toMatchObject({ name: "warehouse-1a2b", baselineTimestamp: "2026-01-01T00:00:00.000Z", hiddenKeys: ["snowflake.private.key"] });
    expect(trackedObjects(checkpoint([{ urn: "urn:pulumi:dev::proj::cdc:index:Pipeline::p", type: "cdc:index:Pipeline", id: "p1", outputs: { name: "p" } }]))).toEqual([
      expect.objectContaining({ kind: "pipeline", id: "p1", name: "p" }),
    ]);
  });

  it("reads the plugin's typed resources (cdc:sources:Postgresql, cdc:destinations:Snowflake) as their generic kind, config in the platform's keys", () => {
    const typedSource = {
      urn: "urn:pulumi:dev::proj::cdc:sources:Postgresql::orders",
      type: "cdc:sources:Postgresql",
      id: "s1",
      outputs: { name: "orders", databaseHostname: "db", databasePort: 5433, secretDigests: { databasePassword: encrypted }, desiredState: "active", drift: {} },
    };
    const typedDestination = {
      urn: "urn:pulumi:dev::proj::cdc:destinations:Snowflake::warehouse",
      type: "cdc:destinations:Snowflake",
      id: "d1",
      outputs: { name: "warehouse-1a2b", snowflakeSchemaName: "RAW", secretDigests: { snowflakePrivateKey: encrypted }, desiredState: "paused", drift: { baselineTimestamp: "2026-01-01T00:00:00.000Z" } },
    };
    expect(trackedConnectors(checkpoint([typedSource, typedDestination]))).toEqual([
      expect.objectContaining({ kind: "source", id: "s1", connector: "postgresql", config: { "database.hostname.user.defined": "db", "database.port.user.defined": 5433 }, hiddenKeys: ["database.password"] }),
      expect.objectContaining({
        kind: "destination",
        id: "d1",
        name: "warehouse-1a2b",
        connector: "snowflake",
        config: { "snowflake.schema.name": "RAW" },
        hiddenKeys: ["snowflake.private.key"],
        desiredState: "paused",
        baselineTimestamp: "2026-01-01T00:00:00.000Z",
      }),
    ]);
  });

  it("skips the old half of a pending replacement and resources without an id", () => {
    const pendingDelete = { ...source, id: "s0", delete: true };
    const noId = { ...destination, id: "" };
    expect(trackedConnectors(checkpoint([pendingDelete, noId, source])).map((r) => r.id)).toEqual(["s1"]);
  });

  it("treats a wholly secret config as unreadable and falls back to the logical name for a secret name", () => {
    const secretAll = { ...source, outputs: { ...source.outputs, name: encrypted, config: encrypted } };
    const [s] = trackedConnectors(checkpoint([secretAll]));
    expect(s).toMatchObject({ name: "orders", config: {}, hiddenKeys: [] });
  });

  it("accepts an empty stack and rejects something that is not a checkpoint", () => {
    expect(trackedConnectors({ version: 3, deployment: {} })).toEqual([]);
    expect(trackedConnectors({ version: 3, deployment: { resources: null } })).toEqual([]);
    expect(() => trackedConnectors({ deployment: { resources: "nope" } })).toThrow(CheckpointError);
    expect(() => trackedConnectors("[]")).toThrow(CheckpointError);
  });
});

describe("trackedObjects", () => {
  const resource = (kind: string, id: string, outputs: Record<string, unknown>, host = "pulumi-nodejs:dynamic/cdc:") => ({
    urn: `urn:pulumi:dev::proj::${host}${kind}::${kind.toLowerCase()}`,
    type: `${host}${kind}`,
    id,
    outputs,
  });

  it("finds tags, credentials, transforms, topics, agents, connections, Kafka users and pipelines of either host, in state order, and no connector", () => {
    const found = trackedObjects(
      checkpoint([
        source,
        resource("Tag", "t1", { name: "pii", type: ["sources"] }),
        resource("Transform", "tr1", { name: "clean" }, "cdc:index:"),
        resource("Topic", "source_s1.public.orders", { topicId: "source_s1.public.orders", partitionCount: 6 }),
        resource("Agent", "a1", { name: "triage" }),
        resource("HttpConnection", "h1", { name: "tickets" }),
        resource("LlmConnection", "l1", { name: "model" }),
        resource("KafkaUser", "analytics-dev", { username: "analytics-dev", kafkaAcls: [] }, "cdc:index:"),
        resource("ClientCredential", "c1", {}),
        resource("Pipeline", "p1", { name: "p" }),
      ]),
    );
    expect(found.map((r) => [r.kind, r.id, r.name])).toEqual([
      ["tag", "t1", "pii"],
      ["transform", "tr1", "clean"],
      ["topic", "source_s1.public.orders", "source_s1.public.orders"],
      ["agent", "a1", "triage"],
      ["http_connection", "h1", "tickets"],
      ["llm_connection", "l1", "model"],
      ["kafka_user", "analytics-dev", "analytics-dev"],
      ["client_credential", "c1", "clientcredential"],
      ["pipeline", "p1", "p"],
    ]);
  });

  it("reads a typed transform (cdc:transforms:MapFilter) as a Transform, its settings as the config", () => {
    const [found] = trackedObjects(
      checkpoint([resource("MapFilter", "tr1", { name: "clean", transformsInputTopicPattern: "public\\.(.*)", transformsInputJobParallelism: 4, deploy: false }, "cdc:transforms:")]),
    );
    expect(found).toMatchObject({
      kind: "transform",
      id: "tr1",
      name: "clean",
      outputs: { transform: "map_filter", config: { "transforms.name": "clean", "transforms.input.topic.pattern": "public\\.(.*)", "transforms.input.job.parallelism": 4 }, deploy: false },
    });
  });

  it("leaves out the values the state keeps encrypted, and falls back to the logical name", () => {
    const [user] = trackedObjects(checkpoint([resource("KafkaUser", "u1", { kafkaAcls: encrypted, whitelistIps: ["10.0.0.1"] })]));
    expect(user).toMatchObject({ name: "kafkauser", outputs: { whitelistIps: ["10.0.0.1"] } });
    expect(user!.outputs).not.toHaveProperty("kafkaAcls");
    expect(trackedObjects(checkpoint([{ ...resource("Tag", "t0", {}), delete: true }, resource("Tag", "", {})]))).toEqual([]);
  });
});

describe("logicalNameOf", () => {
  it("is the last part of the URN", () => {
    expect(logicalNameOf("urn:pulumi:dev::proj::pulumi-nodejs:dynamic/cdc:Source::orders")).toBe("orders");
    expect(logicalNameOf("plain")).toBe("plain");
  });
});
