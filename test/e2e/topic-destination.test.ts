import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { ConsoleClient, webClient } from "../support/web.js";
import { plain, yamlProgram, type YamlProgram } from "../support/yaml.js";

// An API source's topics sent to a destination, in YAML on the provider plugin (the TypeScript
// form is examples/api-source, run by examples.test.ts): a typed HubSpot source, a typed
// Snowflake destination and two TopicDestinations on a fresh stack: preview, a plain up, an
// empty preview; a detach in the console seen by a plain preview and by pulumi-cdc drift, and
// put back by up; `pulumi import` by <topic_id>|<destination_id>; destroy detaches.

const HUBSPOT_TOKEN = "pat-HUBSPOT-SENTINEL-7c1e";

describe("TopicDestination: a HubSpot source's topics sent to Snowflake, in YAML on the plugin", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let program: YamlProgram;
  let stack: TestStack;
  let outputs: Record<string, unknown> = {};
  const printed: string[] = [];

  const binding = (topic: string, destination: string) => web.get("/topics/{t}/destinations/{d}", { params: { t: topic, d: destination } }).then(
    (b) => b as { topic_ids: string[] },
    () => undefined,
  );

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    program = await yamlProgram(join(__dirname, "fixtures", "api-source-yaml"));
    stack = await TestStack.create(program.dir, {
      stackName: "crm",
      env: { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret },
    });
    await stack.setConfigs({}, { hubspotToken: HUBSPOT_TOKEN, snowflakePrivateKey: "MIIEvQ-example" });
  });
  afterAll(async () => {
    await stack?.cleanup();
    await program?.dispose();
    await web?.close();
    await emulator?.stop();
  });

  it("previews the creates on a fresh stack, goes up with a plain up, and previews clean", async () => {
    const preview = await stack.run(["preview", "--stack", stack.stackName]);
    expect(plain(preview.stdout)).toMatch(/\+\s+cdc:index:TopicDestination\s+contactsToWarehouse\s+create/);
    expect(plain(preview.stdout)).toMatch(/\+ 5 to create/);
    const up = await stack.up();
    printed.push(up.output);
    expect(plain(up.stdout)).toMatch(/\+ 5 created/);
    outputs = await stack.outputs();
    const source = String(outputs.sourceId);
    const destination = String(outputs.destinationId);
    expect(outputs.contactsBinding).toBe(`source_${source}.hubspot.contacts|${destination}`);
    expect((await binding(`source_${source}.hubspot.contacts`, destination))?.topic_ids.sort()).toEqual(
      [`source_${source}.hubspot.companies`, `source_${source}.hubspot.contacts`].sort(),
    );
    expect(plain((await stack.preview(["--expect-no-changes"])).stdout)).toMatch(/5 unchanged/);
  });

  it("a detach in the console shows in a plain preview and in pulumi-cdc drift; up attaches it again", async () => {
    const topic = `source_${String(outputs.sourceId)}.hubspot.contacts`;
    const destination = String(outputs.destinationId);
    await web.delete("/topics/{t}/destinations/{d}", { params: { t: topic, d: destination } });

    const drifted = await stack.run(["preview", "--expect-no-changes", "--stack", stack.stackName], { allowFailure: true });
    printed.push(drifted.output);
    expect(drifted.code).not.toBe(0);
    expect(plain(drifted.output)).toMatch(/~\s+cdc:index:TopicDestination\s+contactsToWarehouse\s+update/);
    expect(plain(drifted.output)).toContain("is no longer sent to destination");

    const report = await stack.drift(["--json"]);
    printed.push(report.stdout, report.stderr);
    expect(report.code, report.stderr).toBe(2);
    const parsed = JSON.parse(report.stdout) as { resources: Array<{ type: string; id: string; drift: { detected: boolean } }> };
    expect(parsed.resources.find((r) => r.id === `${topic}|${destination}`)).toMatchObject({ type: "topic_destination", drift: { detected: true } });
    expect(parsed.resources.find((r) => r.type === "source")?.drift.detected).toBe(false);

    await stack.up();
    expect(await binding(topic, destination)).toBeDefined();
    expect(plain((await stack.preview(["--expect-no-changes"])).stdout)).toMatch(/5 unchanged/);
  });

  it("pulumi import by <topic_id>|<destination_id> writes YAML that previews with no changes", async () => {
    const id = String(outputs.contactsBinding);
    const empty = await mkdtemp(join(tmpdir(), "pulumi-cdc-import-binding-"));
    await writeFile(join(empty, "Pulumi.yaml"), "name: cdc-e2e-import-binding\nruntime: yaml\n");
    const project = await yamlProgram(empty);
    const other = await TestStack.create(project.dir, {
      stackName: "crm-import",
      env: { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret },
    });
    const out = join(project.dir, "imported.yaml");
    try {
      const imported = await other.run(["import", "cdc:index:TopicDestination", "contacts", id, "--yes", "--out", out, "--stack", other.stackName]);
      expect(plain(imported.stdout)).toMatch(/=\s+cdc:index:TopicDestination\s+contacts\s+imported/);
      const code = await readFile(out, "utf8");
      const [topic, destination] = id.split("|");
      expect(code).toContain(`topicId: ${topic}`);
      expect(code).toContain(`destinationId: ${destination}`);
      await appendFile(join(project.dir, "Pulumi.yaml"), `\n${code}`);
      expect(plain((await other.preview(["--expect-no-changes"])).stdout)).toMatch(/2 unchanged/);
      // Destroying this stack would detach the topic the first stack manages: it forgets it instead
      // (--force: pulumi import protects what it imports).
      await other.run(["state", "delete", "urn:pulumi:crm-import::cdc-e2e-import-binding::cdc:index:TopicDestination::contacts", "--yes", "--force", "--stack", other.stackName]);
    } finally {
      await other.dispose();
      await project.dispose();
      await rm(empty, { recursive: true, force: true });
    }
  });

  it("destroy detaches the topics and deletes the source and destination; no secret in plain text", async () => {
    const destroy = await stack.destroy();
    expect(plain(destroy.stdout)).toMatch(/- 5 deleted/);
    expect(await binding(`source_${String(outputs.sourceId)}.hubspot.companies`, String(outputs.destinationId))).toBeUndefined();
    for (const text of printed) expect(text).not.toContain(HUBSPOT_TOKEN);
  });
});
