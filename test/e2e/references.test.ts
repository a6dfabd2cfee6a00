import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { sourceConnectorSchema } from "../../provider/client/index.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { webClient } from "../support/web.js";
import { plain, yamlProgram, type YamlProgram } from "../support/yaml.js";

// The reference matrix under the real engine, on both hosts: every kind that takes a reference
// to another resource, each given one created in the same run (tags from Tags, a Pipeline's
// source, destination and transform topics, a Topic's id, an Agent's connections, a Kafka user's
// ACL topics, a lookup's argument, and on the plugin the typed resources). On a fresh stack the
// first `pulumi preview` sees all of them unknown: it must plan the creates and fail nothing.
// Then a plain `pulumi up --yes` (which previews again), an empty preview, destroy.

const secrets = {
  dbPassword: "refs-db-password",
  snowflakeKey: "refs-snowflake-key",
  llmKey: "sk-refs-llm-key",
  ticketsToken: "Bearer refs-token",
  kafkaPassword: "refs-kafka-password-1",
};

/** The rows each host's program holds: a token's last segment and the resource's name. */
const TS_ROWS = ["Pipeline\\s+orders-to-warehouse", "Topic\\s+orders-topic", "Agent\\s+triage", "KafkaUser\\s+consumer", "Transform\\s+clean", "Source\\s+orders", "Destination\\s+warehouse"];
const YAML_ROWS = ["Pipeline\\s+pipeline", "Topic\\s+ordersTopic", "Agent\\s+triage", "KafkaUser\\s+consumer", "MapFilter\\s+clean", "Postgresql\\s+orders", "Snowflake\\s+warehouse"];

async function firstRun(stack: TestStack, rows: string[], prefix: string) {
  const preview = await stack.run(["preview", "--stack", stack.stackName], { allowFailure: true });
  const output = plain(preview.output);
  expect(output, output).not.toMatch(/error:/);
  expect(preview.code, output).toBe(0);
  for (const row of rows) expect(output).toMatch(new RegExp(`\\+\\s+${prefix}\\S*${row}\\s+create`));

  const up = await stack.run(["up", "--yes", "--stack", stack.stackName]);
  expect(plain(up.stdout)).toMatch(/\+ \d+ created/);
  const outputs = await stack.outputs();
  await stack.run(["preview", "--expect-no-changes", "--stack", stack.stackName]);
  return outputs;
}

describe("references to resources of the same run: the first preview and a plain up", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let tsStack: TestStack | undefined;
  let yamlStack: TestStack | undefined;
  let yaml: YamlProgram | undefined;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    for (const stack of [tsStack, yamlStack]) {
      await stack?.cleanup();
    }
    await yaml?.dispose();
    await emulator?.stop();
  });

  const sourceId = async (name: string) => {
    const web = webClient(emulator);
    try {
      return (await web.listAll("/sources", {}, sourceConnectorSchema)).find((s) => s.name === name)?.id;
    } finally {
      await web.close();
    }
  };
  const api = () => ({ CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret });

  it("TypeScript on the dynamic classes", async () => {
    tsStack = await TestStack.create(join(__dirname, "fixtures", "references"), { stackName: "refs", env: api() });
    await tsStack.setConfigs({}, Object.fromEntries(Object.entries(secrets).map(([key, value]) => [`e2e:${key}`, value])));
    const outputs = await firstRun(tsStack, TS_ROWS, "pulumi-nodejs:dynamic/cdc:");
    expect(outputs.lookedUp).toBe(`source_${await sourceId("refs-orders-refs")}.public.customers`);
    await tsStack.destroy();
  });

  it("YAML on the provider plugin, typed resources among them", async () => {
    yaml = await yamlProgram(join(__dirname, "fixtures", "references-yaml"));
    yamlStack = await TestStack.create(yaml.dir, { stackName: "refs", env: api() });
    await yamlStack.setConfigs({}, Object.fromEntries((["dbPassword", "snowflakeKey", "llmKey", "kafkaPassword"] as const).map((key) => [key, secrets[key]])));
    const outputs = await firstRun(yamlStack, YAML_ROWS, "cdc:");
    expect(outputs.lookedUp).toBe(`source_${await sourceId("refs-yaml-orders-refs")}.public.customers`);
    await yamlStack.destroy();
  });
});
