import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { sourceConnectorSchema } from "../../provider/client/index.js";
import { pipelineSchema, topicSchema, transformSchema } from "../../provider/pipelines/schemas.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { ConsoleClient, webClient } from "../support/web.js";

const ROOT = resolve(__dirname, "..", "..");
const PROGRAM = join(ROOT, "examples", "pipeline");

describe("the pipeline example under the real Pulumi engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let stack: TestStack;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    stack = await TestStack.create(PROGRAM, { stackName: "pipeline" });
    await stack.useApi(emulator, {}, { "cdc-pipeline:dbPassword": "PG-PIPELINE-SENTINEL", "cdc-pipeline:snowflakePrivateKey": "SF-PIPELINE-SENTINEL" });
  });
  afterAll(async () => {
    emulator?.setFaults({ deleteDelayReads: 0 });
    await stack?.cleanup();
    await web?.close();
    await emulator?.stop();
  });

  const pipeline = async (id: string) => (await web.findOne("/pipelines/{id}", pipelineSchema, { params: { id } }))!;
  // The API's settings from the stack's config only.
  const drift = () => stack.drift([], { stackConfigOnly: true });

  it("creates the example with the transform RUNNING, previews clean, updates in place, catches drift, destroys in order with delayed deletes", async () => {
    const up = await stack.up();
    expect(up.stdout).toMatch(/\+ 7 created/);
    const outs = await stack.outputs();
    const [pipelineId, transformId, sourceId] = [outs.pipelineId as string, outs.transformId as string, outs.sourceId as string];
    expect(outs.transformStatus).toBe("RUNNING");
    expect(outs.transformTopics).toEqual(["clean.customers", "clean.orders"]);
    const live = await pipeline(pipelineId);
    expect(live.source?.topics).toEqual([`source_${sourceId}.public.payments`]);
    expect(live.transforms.map((e) => e.topic_id).sort()).toEqual([`transform_${transformId}_1.clean.customers`, `transform_${transformId}_1.clean.orders`]);
    expect(live.tags).toHaveLength(1);
    expect(live.created_from).toBe("terraform");
    expect((await web.get("/topics/{id}", { params: { id: `source_${sourceId}.public.payments` }, schema: topicSchema })).kafka?.partitions).toBe(6);

    // The API echoes prefixed ids, sorted its own way: no change.
    await stack.preview(["--expect-no-changes"]);
    expect((await drift()).code).toBe(0);

    // Select another source topic, send one transform topic, change the code: all in place.
    await stack.setConfigs({
      "cdc-pipeline:sourceTopics": '["public.payments","public.orders"]',
      "cdc-pipeline:cleanTopics": '["clean.orders"]',
      "cdc-pipeline:valueTransform": "function _stk(record) { record.seen = true; return record; }",
    });
    const updated = await stack.up();
    expect(updated.stdout).toMatch(/~ 2 updated/);
    expect(updated.stdout).not.toMatch(/replaced|created/);
    const after = await stack.outputs();
    expect([after.pipelineId, after.transformId]).toEqual([pipelineId, transformId]);
    expect(after.transformStatus).toBe("RUNNING");
    const transform = (await web.findOne("/transforms/{id}", transformSchema, { params: { id: transformId } }))!;
    expect(transform.implementation?.value_transform).toMatch(/record.seen = true/);
    expect(transform.version).toBe(2);
    const reselected = await pipeline(pipelineId);
    expect(reselected.source?.topics?.sort()).toEqual([`source_${sourceId}.public.orders`, `source_${sourceId}.public.payments`]);
    expect(reselected.transforms.map((e) => e.topic)).toEqual(["clean.orders"]);
    await stack.preview(["--expect-no-changes"]);

    // Someone takes the orders topic out in the web console: a plain preview and the drift command see it.
    const current = await pipeline(pipelineId);
    await web.put("/pipelines/{id}", {
      params: { id: pipelineId },
      body: { ...current, source: { ...current.source, topics: [`source_${sourceId}.public.payments`] } },
    });
    const seen = await stack.preview(["--expect-no-changes"], { allowFailure: true });
    expect(seen.code).not.toBe(0);
    expect(seen.output).toMatch(/pipeline ".*" .* changed outside Pulumi[\s\S]*selects source topics \[public\.payments\]/);
    const report = await drift();
    expect(report.code, report.stderr).toBe(2);
    expect(report.stdout).toMatch(/✗ pipeline orders-to-warehouse-pipeline .*: drift/);
    await stack.up();
    expect((await pipeline(pipelineId)).source?.topics?.sort()).toEqual([`source_${sourceId}.public.orders`, `source_${sourceId}.public.payments`]);
    await stack.preview(["--expect-no-changes"]);

    // A decrease of partitions fails the preview before any API call.
    await stack.setConfig("cdc-pipeline:paymentsPartitions", "3");
    const refused = await stack.preview([], { allowFailure: true });
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/partitionCount.*can only be increased/);
    await stack.setConfig("cdc-pipeline:paymentsPartitions", "6");

    // Destroy with the platform's asynchronous deletes: the pipeline is waited out before its source goes.
    emulator.setFaults({ deleteDelayReads: 3 });
    const destroyed = await stack.destroy();
    expect(destroyed.output).toMatch(/left in place/);
    expect(await web.listAll("/pipelines", {}, pipelineSchema)).toEqual([]);
    expect(await web.listAll("/transforms", {}, transformSchema)).toEqual([]);
    expect(await web.listAll("/sources", {}, sourceConnectorSchema)).toEqual([]);
  });
});
