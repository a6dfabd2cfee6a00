import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findConnector, secretKeys } from "../../catalogue/index.js";
import { SIG_KEY } from "../../provider/secret-signature.js";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { sourceConnectorSchema } from "../../provider/client/index.js";
import { providerText, type ResourceKind } from "../../sdk/dynamic.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { ConsoleClient, webClient } from "../support/web.js";

// Each resource's state holds its provider's text (`__provider`), which the engine's dynamic-provider
// host loads to diff, read and delete it. pulumi-cdc 0.1.0 stored a serialized closure there
// (2.3 KB); now it stores one line that loads the provider by package name. A stack deployed
// before the change must go on working after it.

const FIXTURE = join(__dirname, "fixtures", "upgrade");
const KINDS = ["Tag", "Source", "Destination", "ClientCredential"];

interface StateResource {
  type: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The serialized provider of each resource kind in the stack's state (inputs and outputs agree). */
async function providerTexts(stack: TestStack): Promise<Record<string, string>> {
  const checkpoint = JSON.parse(await stack.exportState()) as { deployment: { resources: StateResource[] } };
  const texts: Record<string, Set<string>> = {};
  for (const r of checkpoint.deployment.resources) {
    const kind = r.type.replace("pulumi-nodejs:dynamic/cdc:", "");
    if (!KINDS.includes(kind)) continue;
    for (const text of [r.inputs?.["__provider"], r.outputs?.["__provider"]]) {
      expect(typeof text).toBe("string");
      (texts[kind] ??= new Set()).add(text as string);
    }
  }
  expect(Object.keys(texts).sort()).toEqual([...KINDS].sort());
  return Object.fromEntries(
    Object.entries(texts).map(([kind, set]) => {
      // Every resource of a kind carries the same text.
      expect(set.size, kind).toBe(1);
      return [kind, [...set][0]!];
    }),
  );
}

describe("a stack deployed with the per-resource provider objects of earlier versions", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let stack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    stack = await TestStack.create(FIXTURE, { stackName: `upgrade-${process.pid}` });
    await stack.useApi(emulator);
  });

  afterAll(async () => {
    await stack?.cleanup();
    await emulator?.stop();
  });

  it("previews with no changes after the upgrade, deletes with its recorded provider, and then stores the one-line text", async () => {
    await stack.setConfig("upgrade:legacy", "true");
    // Five resources and the stack.
    expect((await stack.up()).stdout).toMatch(/\+ 6 created/);
    for (const [kind, text] of Object.entries(await providerTexts(stack))) {
      expect(text, kind).toContain(`with({ kind: "${kind}"`);
      expect(text.length, kind).toBeGreaterThan(2000);
    }

    await stack.run(["config", "rm", "upgrade:legacy", "--stack", stack.stackName]);
    await stack.preview(["--expect-no-changes"]);
    const upgraded = await stack.up();
    expect(upgraded.stdout).toMatch(/6 unchanged/);
    expect(upgraded.stdout).not.toMatch(/updated|replaced|created|deleted/);
    await stack.refresh();
    await stack.preview(["--expect-no-changes"]);

    // The engine deletes each resource with the provider text its state recorded.
    const destroyed = await stack.destroy();
    expect(destroyed.stdout).toMatch(/- 6 deleted/);
    expect(emulator.stats().requests["DELETE /sources/:source_id"]).toBe(2);

    // Deployed now: each resource carries its kind's one line, and a second preview is empty.
    await stack.up();
    const texts = await providerTexts(stack);
    expect(texts).toEqual(Object.fromEntries(KINDS.map((kind) => [kind, providerText(kind as ResourceKind)])));
    expect(texts["Source"]).toBe('exports.handler = () => require("pulumi-cdc/provider").dynamicProvider("Source");\n');
    await stack.preview(["--expect-no-changes"]);
  });
});

// Issue 27 point 2, "upgrade without surprise": the catalogue moved from the platform's beta.24 to
// its 3.0.1-era versions. A stack deployed with the old one holds keys the platform has since
// dropped, objects holding a default that has since changed, and values recorded in plain for
// keys that have since become secret. The stack is deployed by the package as it is, then made
// to look as a beta.24 deployment left it: its state rewritten by `pulumi stack export`/`import`,
// and the objects changed over HTTP as the web console would. (The emulator, like the platform at
// 3.0.1, no longer keeps a dropped key, so the objects cannot hold one: only the stack does.)

const CATALOGUE_FIXTURE = join(__dirname, "fixtures", "upgrade-catalogue");
const ARCHIVE_KEY_ID = "AKIAUPGRADEARCHIVE01";
const OLD_CHUNK_SIZE = "32768";

type Props = Record<string, unknown>;
interface CheckpointResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Props;
  outputs?: Props;
}

function isSecretValue(value: unknown): value is Props {
  return typeof value === "object" && value !== null && (value as Props)[SIG_KEY] !== undefined;
}

/** Changes a resource's `config` (inputs or outputs) in an export made with --show-secrets, inside its secret wrapper when the whole map is one. */
function editConfig(props: Props, edit: (config: Props) => void): void {
  const config = props["config"];
  if (isSecretValue(config)) {
    const inner = JSON.parse(config["plaintext"] as string) as Props;
    edit(inner);
    props["config"] = { ...config, plaintext: JSON.stringify(inner) };
  } else {
    edit(config as Props);
  }
}

function byName(resources: CheckpointResource[], name: string): CheckpointResource {
  const found = resources.find((r) => r.urn.endsWith(`::${name}`) && r.type.startsWith("pulumi-nodejs:dynamic/cdc:"));
  expect(found, name).toBeDefined();
  return found!;
}

/** The stack as a deployment with the beta.24 catalogue recorded it. */
async function recordAsBeta24(stack: TestStack): Promise<void> {
  const { stdout } = await stack.run(["stack", "export", "--show-secrets", "--stack", stack.stackName]);
  const checkpoint = JSON.parse(stdout) as { deployment: { resources: CheckpointResource[] } };
  const resources = checkpoint.deployment.resources;
  const setInBoth = (r: CheckpointResource, edit: (config: Props) => void) => {
    editConfig(r.inputs!, edit);
    editConfig(r.outputs!, edit);
  };
  // beta.24's helpers set keys the platform has since dropped.
  setInBoth(byName(resources, "lake"), (c) => (c["file.name.prefix"] = "orders/"));
  setInBoth(byName(resources, "orders"), (c) => (c["post.processors"] = "reselector"));
  // beta.24 did not know aws.access.key.id as secret: the stack kept the value in plain.
  setInBoth(byName(resources, "archive"), (c) => (c["aws.access.key.id"] = ARCHIVE_KEY_ID));
  const dir = await mkdtemp(join(tmpdir(), "pulumi-cdc-upgrade-"));
  try {
    const file = join(dir, "beta24.json");
    await writeFile(file, JSON.stringify(checkpoint));
    await stack.run(["stack", "import", "--file", file, "--stack", stack.stackName]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What beta.24 sent for a key the program left unset: its default then. The console edits the object to hold it. */
async function holdOldChunkSize(web: ConsoleClient, id: string): Promise<void> {
  const live = (await web.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } }))!;
  const config: Props = { ...live.config, "incremental.snapshot.chunk.size": OLD_CHUNK_SIZE };
  // The console sends back the mask it read, which keeps each stored secret.
  for (const key of secretKeys(findConnector("source", "dynamodb")!)) config[key] = "********";
  await web.put("/sources/{id}", { params: { id }, body: { name: live.name, connector: "dynamodb", config } });
}

function writes(emulator: RunningEmulator): string[] {
  return Object.keys(emulator.stats().requests).filter((r) => /^(POST|PUT|PATCH|DELETE) /.test(r) && !r.includes("/auth/"));
}

describe("a stack deployed with the beta.24 catalogue, after the upgrade to 3.0.1's", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let stack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    stack = await TestStack.create(CATALOGUE_FIXTURE, { stackName: `upgrade-catalogue-${process.pid}` });
    await stack.useApi(emulator);
  });

  afterAll(async () => {
    await stack?.cleanup();
    await web?.close();
    await emulator?.stop();
  });

  it("previews a dropped key and a changed default as no change, and records a key made secret as a secret without a write or a replacement", async () => {
    await stack.preview();
    await stack.up();
    const ids = (await stack.outputs())["ids"] as Record<string, string>;
    await recordAsBeta24(stack);
    await holdOldChunkSize(web, ids["events"]!);
    const before = await stack.exportState();
    // The case (c) is set up: the value is in the state in plain.
    expect(before).toContain(ARCHIVE_KEY_ID);

    // (a) and (b) are no change; (c) is an update of the stack's record of archive, never a replacement.
    const preview = await stack.preview();
    expect(preview.stdout).toMatch(/~ 1 to update/);
    expect(preview.stdout).toMatch(/4 unchanged/);
    expect(preview.stdout).toMatch(/~ pulumi-nodejs:dynamic\/cdc:Destination: \(update\)\n\s+\[id=[^\]]+\]\n\s+\[urn=[^\]]+::archive\]/);
    expect(preview.output).not.toMatch(/replace|changed outside Pulumi/);

    emulator.resetStats();
    const upgraded = await stack.up();
    expect(upgraded.stdout).toMatch(/~ 1 updated/);
    expect(upgraded.stdout).not.toMatch(/replaced|created|deleted/);
    // Nothing was written: not the dropped keys, not today's defaults over the objects' own.
    expect(writes(emulator)).toEqual([]);
    expect((await stack.outputs())["ids"]).toEqual(ids);

    // (c) The key is a secret in the state, encrypted, and nowhere in plain.
    const after = await stack.exportState();
    expect(after).not.toContain(ARCHIVE_KEY_ID);
    const archive = byName((JSON.parse(after) as { deployment: { resources: CheckpointResource[] } }).deployment.resources, "archive");
    const recordedKeyId = (archive.inputs!["config"] as Props)["aws.access.key.id"];
    expect(isSecretValue(recordedKeyId) && typeof recordedKeyId["ciphertext"] === "string").toBe(true);

    // (a), (b) and now (c): the whole stack previews with no changes.
    await stack.preview(["--expect-no-changes"]);

    // (b) The drift command reports nothing, and the object keeps the default it was made with.
    const drift = await stack.drift(["--json"], { stackConfigOnly: true });
    expect(drift.code, drift.stdout + drift.stderr).toBe(0);
    const report = JSON.parse(drift.stdout) as { resources: Array<{ id: string; drift: { detected: boolean } }> };
    expect(report.resources.map((r) => r.id).sort()).toEqual(Object.values(ids).sort());
    expect(report.resources.filter((r) => r.drift.detected)).toEqual([]);
    const events = await web.findOne("/sources/{id}", sourceConnectorSchema, { params: { id: ids["events"]! } });
    expect(String(events!.config!["incremental.snapshot.chunk.size"])).toBe(OLD_CHUNK_SIZE);
  });
});
