import { describe, expect, it } from "vitest";
import { ClientCredentialProvider, type ClientCredentialOutputs } from "../../../provider/resources/clientCredential.js";
import { ConnectorProvider, DESTINATION, SOURCE, transitions, type ConnectorInputs, type ConnectorOutputs } from "../../../provider/resources/connector.js";
import { TagProvider, type TagOutputs } from "../../../provider/resources/tag.js";

describe("lifecycle transitions", () => {
  it("moves a connector from its live status to the desired state", () => {
    expect(transitions(DESTINATION, "Active", "active")).toEqual([]);
    expect(transitions(DESTINATION, "Active", "paused")).toEqual(["pause"]);
    expect(transitions(DESTINATION, "Paused", "active")).toEqual(["resume"]);
    expect(transitions(DESTINATION, "Stopped", "active")).toEqual(["resume"]);
    expect(transitions(DESTINATION, "Stopped", "paused")).toEqual(["resume", "pause"]);
    expect(transitions(DESTINATION, "Active", "stopped")).toEqual(["stop"]);
    expect(transitions(DESTINATION, "Paused", "stopped")).toEqual(["stop"]);
  });
  it("leaves states Pulumi cannot set alone, and never stops a source", () => {
    expect(transitions(DESTINATION, "Broken", "active")).toEqual([]);
    expect(transitions(SOURCE, "Active", "stopped")).toEqual([]);
  });
});

describe("diff without the API", () => {
  const olds = {
    name: "orders",
    connector: "postgresql",
    config: { "database.port": 5432 },
    desiredState: "active",
    autonamed: false,
  } as unknown as ConnectorOutputs;

  it("replaces on a connector change, deleting first for an explicit name and not for an autoname", async () => {
    const sources = new ConnectorProvider(SOURCE);
    const news = { ...olds, connector: "mysql" } as ConnectorInputs;
    expect(await sources.diff("id", olds, news)).toEqual({ changes: true, replaces: ["connector"], deleteBeforeReplace: true });
    expect(await sources.diff("id", olds, { ...news, autonamed: true })).toEqual({ changes: true, replaces: ["connector"], deleteBeforeReplace: false });
  });

  it("a config known only after another resource is made (preview): check passes it, diff says it may change, before any API call", async () => {
    const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
    const sources = new ConnectorProvider(SOURCE);
    const { inputs, failures } = await sources.check({}, { logicalName: "orders", name: "orders", connector: "postgresql", config: UNKNOWN });
    expect(failures).toEqual([]);
    expect((inputs as ConnectorInputs).config).toBe(UNKNOWN);
    expect(await sources.diff("id", olds, inputs as ConnectorInputs)).toEqual({ changes: true, replaces: [], diffs: ["config"] });
  });

  it("updates a client credential's roles and description in place, replaces it on a new service, and never diffs an equal role set", async () => {
    const creds = new ClientCredentialProvider();
    const old = { roleIds: ["a", "b"], description: "d" } as ClientCredentialOutputs;
    expect(await creds.diff("id", old, { roleIds: ["b", "a"], description: "d" })).toEqual({ changes: false, replaces: [], diffs: [] });
    expect(await creds.diff("id", old, { roleIds: ["a"], description: "e" })).toEqual({ changes: true, replaces: [], diffs: ["roleIds", "description"] });
    expect(await creds.diff("id", old, { roleIds: ["a", "b"], description: "d", serviceId: "s" })).toEqual({
      changes: true,
      replaces: ["serviceId"],
      diffs: ["serviceId"],
    });
  });

  it("leaves a client credential's description alone when the program removes it: the API cannot clear one", async () => {
    const creds = new ClientCredentialProvider();
    const old = { roleIds: ["a"], description: "d" } as ClientCredentialOutputs;
    expect(await creds.diff("id", old, { roleIds: ["a"] })).toEqual({ changes: false, replaces: [], diffs: [] });
    expect(await creds.diff("id", old, { roleIds: ["a"], description: "" })).toEqual({ changes: false, replaces: [], diffs: [] });
  });

  it("updates a tag in place, ignoring the order of its types", async () => {
    const tags = new TagProvider();
    const old = { name: "t", description: "", type: ["sources", "topics"] } as unknown as TagOutputs;
    expect(await tags.diff("id", old, { name: "t", description: "", type: ["topics", "sources"] })).toEqual({ changes: false, replaces: [] });
    expect(await tags.diff("id", old, { name: "t2", description: "", type: ["topics", "sources"] })).toEqual({ changes: true, replaces: [] });
  });
});
