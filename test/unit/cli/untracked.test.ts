import { describe, expect, it } from "vitest";
import { addAdopted, checkpointInputs, plannedCreates, withoutUnknowns } from "../../../cli/untracked.js";
import { UNKNOWN } from "../../../provider/normalize.js";

// What `pulumi preview --json` prints for a fresh stack of the plugin (the shape of v3.259's
// steps, trimmed): the stack resource and two creates, the provider reference not yet known.
const STACK = "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev";
const PROVIDER = "urn:pulumi:dev::p::pulumi:providers:cdc::default";
const TAG = "urn:pulumi:dev::p::cdc:index:Tag::team";
const SRC = "urn:pulumi:dev::p::cdc:index:Source::orders";
const PIPE = "urn:pulumi:dev::p::cdc:index:Pipeline::flow";
const preview = {
  steps: [
    { op: "create", urn: STACK, newState: { urn: STACK, custom: false, type: "pulumi:pulumi:Stack", sourcePosition: "x", stackTrace: [] } },
    { op: "create", urn: TAG, newState: { urn: TAG, custom: true, type: "cdc:index:Tag", inputs: { name: "team", type: ["sources"] }, parent: STACK, provider: `${PROVIDER}::${UNKNOWN}` } },
    {
      op: "create",
      urn: SRC,
      newState: {
        urn: SRC,
        custom: true,
        type: "cdc:index:Source",
        inputs: { name: "orders", connector: "postgresql", config: { "database.password": "[secret]", "database.user": "cdc" }, tags: [UNKNOWN] },
        parent: STACK,
        provider: `${PROVIDER}::${UNKNOWN}`,
        dependencies: [TAG],
        propertyDependencies: { tags: [TAG], name: [] },
        sourcePosition: "project:///x",
      },
    },
    { op: "create", urn: PIPE, newState: { urn: PIPE, custom: true, type: "cdc:index:Pipeline", inputs: { name: "flow" }, parent: STACK, provider: `${PROVIDER}::${UNKNOWN}` } },
    { op: "same", urn: "urn:pulumi:dev::p::cdc:index:Tag::old", newState: { urn: "urn:pulumi:dev::p::cdc:index:Tag::old", type: "cdc:index:Tag", inputs: { name: "old" } } },
  ],
};

/** A checkpoint holding the stack resource, the cdc provider and `more`. */
function stackWithProvider(...more: Array<Record<string, unknown>>) {
  return {
    version: 3,
    deployment: {
      resources: [{ urn: STACK, custom: false, type: "pulumi:pulumi:Stack" }, { urn: PROVIDER, custom: true, type: "pulumi:providers:cdc", id: "prov-1" }, ...more] as Array<Record<string, unknown>>,
    },
  };
}

describe("planned creates of a run killed with skipped checkpoints", () => {
  it("are the preview's creates of our kinds, not in the stack, unknowns left out", () => {
    const planned = plannedCreates(preview, new Set([TAG]));
    // The tag is known to the stack, the 'same' step is no create; a pipeline is found like a source.
    expect(planned.ops.map((op) => op.urn)).toEqual([SRC, PIPE]);
    expect(planned.ops[0]).toMatchObject({ type: "creating", planned: true, resourceType: "cdc:index:Source", inputs: { name: "orders", connector: "postgresql", tags: [] } });
    // Every planned state is kept: parents and providers are built from them.
    expect([...planned.states.keys()]).toEqual([STACK, TAG, SRC, PIPE]);
    expect(plannedCreates({ nothing: true }, new Set()).ops).toEqual([]);
  });

  it("keeps a secret the preview hides a secret, and drops unknowns at any depth", () => {
    expect(withoutUnknowns({ a: UNKNOWN, b: [UNKNOWN, "x", { c: UNKNOWN, d: 1 }] })).toEqual({ b: ["x", { d: 1 }] });
    expect(checkpointInputs({ config: { "database.password": "[secret]", user: "cdc" }, tags: [UNKNOWN] })).toEqual({
      config: { "database.password": { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: '"[secret]"' }, user: "cdc" },
      tags: [],
    });
  });

  it("adds an adopted create after the stack's resources, with the stack's provider and only dependencies the stack holds", () => {
    const { states } = plannedCreates(preview, new Set());
    const checkpoint = stackWithProvider();
    const { checkpoint: out, skipped } = addAdopted(checkpoint, new Map([[SRC, "src-9"]]), states);
    expect(skipped).toEqual([]);
    const resources = (out as typeof checkpoint).deployment.resources as Array<Record<string, unknown>>;
    expect(resources.map((r) => r.urn)).toEqual([STACK, PROVIDER, SRC]);
    const src = resources[2]!;
    expect(src).toMatchObject({ id: "src-9", custom: true, provider: `${PROVIDER}::prov-1`, parent: STACK, dependencies: [], propertyDependencies: { tags: [], name: [] } });
    expect(src.inputs).toEqual(src.outputs);
    expect(src).not.toHaveProperty("sourcePosition");
    // The input checkpoint is left as it was.
    expect(checkpoint.deployment.resources).toHaveLength(2);
  });

  it("takes the new half of a replacement the stack holds the old one of, and marks the old one for deletion", () => {
    const replaced = { steps: [{ op: "replace", urn: SRC, newState: { ...preview.steps[2]!.newState, inputs: { name: "orders", connector: "postgresql" } } }] };
    const planned = plannedCreates(replaced, new Set([SRC]));
    expect(planned.ops.map((op) => op.urn)).toEqual([SRC]);
    // A pending create of the same URN is settled as such, never a second time.
    expect(plannedCreates(replaced, new Set([SRC]), new Set([SRC])).ops).toEqual([]);
    const checkpoint = stackWithProvider({ urn: SRC, custom: true, type: "cdc:index:Source", id: "src-old", provider: `${PROVIDER}::prov-1`, parent: STACK });
    const { checkpoint: out } = addAdopted(checkpoint, new Map([[SRC, "src-new"]]), planned.states);
    const records = ((out as typeof checkpoint).deployment.resources as Array<Record<string, unknown>>).filter((r) => r.urn === SRC);
    expect(records.map((r) => [r.id, r.delete === true])).toEqual([
      ["src-old", true],
      ["src-new", false],
    ]);
  });

  it("builds the stack resource from the preview, and skips a create whose provider the stack has no record of", () => {
    const { states } = plannedCreates(preview, new Set());
    const { checkpoint: out, skipped } = addAdopted({ version: 3, deployment: { resources: [] } }, new Map([[SRC, "src-9"]]), states);
    expect(skipped).toEqual([SRC]);
    // The stack resource is a component: built from the preview; the provider only the engine records.
    expect(((out as { deployment: { resources: Array<{ urn: string }> } }).deployment.resources).map((r) => r.urn)).toEqual([STACK]);
  });
});
