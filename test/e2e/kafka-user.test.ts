import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { listKafkaUsers } from "../../provider/kafka/api.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { ConsoleClient, webClient } from "../support/web.js";

const ROOT = resolve(__dirname, "..", "..");
const PROGRAM = join(ROOT, "examples", "kafka-consumer");
const PASSWORD = "KAFKA-PASS-SENTINEL-5e1f";
const STACK = "kafka";

describe("the kafka-consumer example under the real Pulumi engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let stack: TestStack;
  let sourceId: string;
  let transformId: string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    // The pipeline's source and transform, made elsewhere (the pipeline example, in a stack of the same name).
    sourceId = (
      (await web.post("/sources", {
        body: {
          name: `orders-${STACK}`,
          connector: "postgresql",
          config: {
            "database.hostname.user.defined": "db.internal",
            "database.user": "cdc",
            "database.password": "pg-kafka-e2e",
            "database.dbname": "shop",
            "schema.include.list": "public",
            "table.include.list.user.defined": "public.orders,public.customers",
          },
        },
      })) as { id: string }
    ).id;
    transformId = (
      (await web.post("/transforms", {
        body: { transform: "map_filter", config: { "transforms.name": `orders-clean-${STACK}`, "transforms.input.topic.pattern": "public\\.(orders)", "transforms.output.topic.pattern": "clean.$1" } },
      })) as { id: string }
    ).id;
    stack = await TestStack.create(PROGRAM, { stackName: STACK });
    await stack.useApi(emulator, {}, { "cdc-kafka-consumer:kafkaPassword": PASSWORD });
  });
  afterAll(async () => {
    await stack?.cleanup();
    await web?.close();
    await emulator?.stop();
  });

  const live = async () => (await listKafkaUsers(web)).find((u) => u.username === `analytics-${STACK}`);
  // The API's settings from the stack's config only.
  const drift = () => stack.drift([], { stackConfigOnly: true });

  it("creates the read-only user, previews clean, sees an out-of-band ACL and IP edit, puts it back, rotates the password in place, destroys", async () => {
    const up = await stack.up();
    expect(up.stdout).toMatch(/\+ 2 created/);
    const outs = await stack.outputs();
    expect(outs.username).toBe(`analytics-${STACK}`);
    expect(outs.bootstrapServers).toMatch(new RegExp(`^analytics-${STACK}\\..*\\.kafka\\.cdc\\.local:9092$`));
    const user = await live();
    expect(user).toMatchObject({ whitelist_ips: "10.0.0.0/8", is_create_schema_registry: false, created_from: "terraform" });
    expect(user!.kafka_acls.map((a) => `${a.resource} ${a.resource_pattern_type} ${a.name} ${a.operation}`).sort()).toEqual(
      [
        `GROUP PREFIXED analytics- READ`,
        `TOPIC PREFIXED source_${sourceId}. DESCRIBE`,
        `TOPIC PREFIXED source_${sourceId}. READ`,
        `TOPIC PREFIXED transform_${transformId}_ DESCRIBE`,
        `TOPIC PREFIXED transform_${transformId}_ READ`,
      ].sort(),
    );

    // The server answers the ACLs in its own order: still no change. The password is nowhere in the state.
    await stack.preview(["--expect-no-changes"]);
    expect((await drift()).code).toBe(0);
    expect(await stack.exportState()).not.toContain(PASSWORD);

    // In the console: a WRITE rule and another IP.
    await web.put("/kafka-access/kafka-users/{u}", {
      params: { u: `analytics-${STACK}` },
      body: {
        whitelist_ips: "10.0.0.0/8,198.51.100.9",
        kafka_acls: [...user!.kafka_acls, { topic_name: `source_${sourceId}.`, operation: "WRITE", resource_pattern_type: "PREFIXED", resource: "TOPIC" }],
        is_create_schema_registry: false,
      },
    });
    const drifted = await stack.preview(["--expect-no-changes"], { allowFailure: true });
    expect(drifted.code).not.toBe(0);
    expect(drifted.output).toMatch(/Kafka user "analytics-kafka" changed outside Pulumi[\s\S]*ACLs were changed: added WRITE on TOPIC source_[0-9a-f]+\.\*[\s\S]*whitelist IPs were changed to 10\.0\.0\.0\/8, 198\.51\.100\.9/);
    const report = await drift();
    expect(report.code).toBe(2);
    expect(report.stdout).toContain(`✗ Kafka user analytics-${STACK} (id analytics-${STACK}): drift`);
    expect(report.stdout).toContain("ACLs were changed: added WRITE on TOPIC");

    // `pulumi up` puts the program's version back.
    await stack.up();
    expect(await live()).toMatchObject({ whitelist_ips: "10.0.0.0/8" });
    expect((await live())!.kafka_acls.some((a) => a.operation === "WRITE")).toBe(false);
    await stack.preview(["--expect-no-changes"]);
    expect((await drift()).code).toBe(0);

    // A new password is an update in place, not a replacement.
    await stack.setConfig("cdc-kafka-consumer:kafkaPassword", `${PASSWORD}-2`, true);
    const rotated = await stack.up();
    expect(rotated.stdout).toMatch(/~ 1 updated/);
    expect(rotated.stdout).not.toMatch(/replaced/);
    await stack.preview(["--expect-no-changes"]);
    expect(await stack.exportState()).not.toContain(`${PASSWORD}-2`);

    await stack.destroy();
    expect(await live()).toBeUndefined();
  });
});
