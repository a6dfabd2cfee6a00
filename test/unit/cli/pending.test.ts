import { describe, expect, it } from "vitest";
import { parseCommandLine, RECOVER_USAGE } from "../../../cli/args.js";
import { pendingOperations, recoverableKind, settlePendingCreates, trackedIds } from "../../../cli/pending.js";
import { renderPlan } from "../../../cli/recover.js";

const SOURCE = "pulumi-nodejs:dynamic/cdc:Source";
const urn = (name: string) => `urn:pulumi:dev::proj::${SOURCE}::${name}`;

function pendingCreate(name: string, type = "creating") {
  return {
    type,
    resource: {
      urn: urn(name),
      custom: true,
      type: SOURCE,
      inputs: { __provider: "serialized", name: `${name}-api`, connector: "postgresql", config: { password: { ciphertext: "x" } } },
      parent: "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev",
      provider: "urn:pulumi:dev::proj::pulumi:providers:pulumi-nodejs::default::1",
    },
  };
}

function checkpoint() {
  return {
    version: 3,
    deployment: {
      manifest: { time: "2026-11-22T00:00:00Z" },
      resources: [
        { urn: "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev", type: "pulumi:pulumi:Stack", custom: false },
        { urn: urn("done"), type: SOURCE, id: "src-1", inputs: {}, outputs: {} },
      ],
      pending_operations: [pendingCreate("found"), pendingCreate("never"), pendingCreate("updated", "updating")],
    },
  };
}

describe("pending operations of an interrupted run", () => {
  it("are read from the checkpoint with their inputs", () => {
    const ops = pendingOperations(checkpoint());
    expect(ops.map((o) => [o.type, o.urn, o.inputs.name])).toEqual([
      ["creating", urn("found"), "found-api"],
      ["creating", urn("never"), "never-api"],
      ["updating", urn("updated"), "updated-api"],
    ]);
    expect(pendingOperations({ deployment: { resources: [] } })).toEqual([]);
    expect(() => pendingOperations({ nope: true, deployment: "x" })).toThrow(/not a Pulumi checkpoint/);
  });

  it("a typed resource's inputs are read as its core's: the connector from the token, the config in the platform's keys", () => {
    const typed = pendingCreate("typed");
    const op = { ...typed, resource: { ...typed.resource, type: "cdc:destinations:Snowflake", inputs: { name: "wh-api", snowflakeSchemaName: "RAW", snowflakePrivateKey: { ciphertext: "x" } } } };
    const [read] = pendingOperations({ deployment: { resources: [], pending_operations: [op] } });
    expect(read!.inputs).toEqual({ name: "wh-api", connector: "snowflake", config: { "snowflake.schema.name": "RAW", "snowflake.private.key": { ciphertext: "x" } } });
    // The record written back when adopted stays as the engine wrote it.
    expect(read!.resource.inputs).toEqual(op.resource.inputs);
  });

  it("knows which ids the stack already tracks", () => {
    expect(trackedIds(checkpoint())).toEqual(new Set([`${SOURCE}\0src-1`]));
  });

  it("settle: an adopted create becomes a resource with its id, a cleared one goes, the rest stay for refresh", () => {
    const before = checkpoint();
    const after = settlePendingCreates(before, new Map([[urn("found"), "src-2"]]), new Set([urn("never")])) as ReturnType<typeof checkpoint>;
    const adopted = after.deployment.resources.at(-1) as Record<string, unknown>;
    expect(adopted).toMatchObject({ urn: urn("found"), id: "src-2", type: SOURCE, parent: before.deployment.resources[0]!.urn });
    // Its inputs stand in for outputs (the serialized provider included) until the refresh reads the object.
    expect(adopted.outputs).toEqual(adopted.inputs);
    expect((adopted.outputs as Record<string, unknown>).__provider).toBe("serialized");
    expect(after.deployment.pending_operations.map((p) => [p.type, p.resource.urn])).toEqual([["updating", urn("updated")]]);
    // The input is not changed.
    expect(before.deployment.pending_operations).toHaveLength(3);
  });

  it("the create of a replacement, taken in, marks the object it replaces for deletion: one live resource per URN", () => {
    const before = checkpoint();
    before.deployment.resources.push({ urn: urn("found"), type: SOURCE, id: "src-old", inputs: {}, outputs: {}, pendingReplacement: true } as never);
    const after = settlePendingCreates(before, new Map([[urn("found"), "src-new"]]), new Set()) as ReturnType<typeof checkpoint>;
    const records = after.deployment.resources.filter((r) => r.urn === urn("found")) as Array<Record<string, unknown>>;
    expect(records.map((r) => [r.id, r.delete === true, r.pendingReplacement === true])).toEqual([
      ["src-old", true, false],
      ["src-new", false, false],
    ]);
  });

  it("a pending update is never turned into a resource, even if named in the adopt map", () => {
    const after = settlePendingCreates(checkpoint(), new Map([[urn("updated"), "src-9"]]), new Set()) as ReturnType<typeof checkpoint>;
    expect(after.deployment.resources).toHaveLength(2);
    expect(after.deployment.pending_operations).toHaveLength(3);
  });

  it("the plan says what was found and whether anything changed", () => {
    const [found, never] = pendingOperations(checkpoint());
    const decisions = [
      { op: found!, action: "adopt" as const, id: "src-2", note: 'found source "found-api" (src-2): taken into the stack' },
      { op: never!, action: "clear" as const, note: "the create never happened" },
    ];
    expect(renderPlan("dev", decisions, false)).toBe(
      [
        "Stack dev: 2 pending operations from an interrupted run.",
        '  adopt            found (creating): found source "found-api" (src-2): taken into the stack',
        "  clear            never (creating): the create never happened",
        "Nothing was changed. Run again with --yes to do this.",
        "",
      ].join("\n"),
    );
    expect(renderPlan("dev", [], false)).toMatch(/^Stack dev: no pending operations and no untracked objects of the program, nothing to settle\. With --yes, a refresh reads/);
    expect(renderPlan("dev", decisions, true)).toMatch(/Done\. Run `pulumi up`/);
  });
});

describe("pulumi-cdc recover arguments", () => {
  it("parses --stack, --cwd and --yes, and shows its usage", () => {
    expect(parseCommandLine(["recover", "--stack", "dev", "-C", "infra", "--yes"])).toEqual({
      command: "recover",
      options: { stack: "dev", cwd: "infra", yes: true },
    });
    expect(parseCommandLine(["recover"])).toEqual({ command: "recover", options: { yes: false } });
    expect(parseCommandLine(["recover", "--help"])).toEqual({ command: "help", usage: RECOVER_USAGE });
    expect(parseCommandLine(["help", "recover"])).toEqual({ command: "help", usage: RECOVER_USAGE });
    expect(() => parseCommandLine(["recover", "--stack="])).toThrow(/--stack needs a stack name/);
    expect(() => parseCommandLine(["recover", "--force"])).toThrow(/Unknown option '--force'/);
  });
});

describe("recoverableKind", () => {
  it("knows every kind of ours, from either host's type token, and nothing else", () => {
    expect(recoverableKind("pulumi-nodejs:dynamic/cdc:Source")).toBe("source");
    expect(recoverableKind("cdc:index:Source")).toBe("source");
    expect(recoverableKind("cdc:index:ClientCredential")).toBe("clientCredential");
    expect(recoverableKind("cdc:index:Tag")).toBe("tag");
    expect(recoverableKind("cdc:index:Pipeline")).toBe("pipeline");
    expect(recoverableKind("pulumi-nodejs:dynamic/cdc:Agent")).toBe("agent");
    // The plugin's typed resources are their generic kind's.
    expect(recoverableKind("cdc:sources:Postgresql")).toBe("source");
    expect(recoverableKind("cdc:destinations:Snowflake")).toBe("destination");
    expect(recoverableKind("cdc:transforms:MapFilter")).toBe("transform");
    expect(recoverableKind("cdc:sources:Nope")).toBeUndefined();
    expect(recoverableKind("aws:s3:Bucket")).toBeUndefined();
  });
});
