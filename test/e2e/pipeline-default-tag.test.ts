import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import type { CdcClient } from "../../provider/client/index.js";
import { DEVELOPMENT_TAG_ID } from "../../provider/kinds/pipeline.js";
import { pipelineSchema } from "../../provider/pipelines/schemas.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { webClient } from "../support/web.js";
import { plain, yamlProgram } from "../support/yaml.js";

// A pipeline whose program sets no tags, on each host: the vendor's Terraform provider gives such
// a pipeline the platform's Development tag, and so does pulumi-cdc, so the console shows the same
// whichever tool made it. After a first preview and a plain up the pipeline has the tag, a preview
// is clean (no perpetual diff), and a tag changed in the console is left alone (the program does
// not manage the pipeline's tags).

const PRODUCTION_TAG_ID = "670e5bab0d119c0d1f8cda9d";
const SECRETS = { dbPassword: "PG-UNTAGGED-SENTINEL", snowflakeKey: "SF-UNTAGGED-SENTINEL" };

const HOSTS = [
  { host: "the provider plugin (YAML)", yaml: true, fixture: "pipeline-untagged-yaml" },
  { host: "the dynamic providers (TypeScript)", yaml: false, fixture: "pipeline-untagged-ts" },
];

describe.each(HOSTS)("a pipeline without tags, on $host", ({ yaml, fixture }) => {
  let emulator: RunningEmulator;
  let web: CdcClient;
  let program: { dir: string; dispose(): Promise<void> };
  let stack: TestStack;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    const dir = join(__dirname, "fixtures", fixture);
    program = yaml ? await yamlProgram(dir) : { dir, dispose: async () => undefined };
    stack = await TestStack.create(program.dir, { stackName: `untagged-${process.pid}` });
    await stack.useApi(emulator, {}, SECRETS);
  }, ENGINE_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.cleanup();
    await program?.dispose();
    await web?.close();
    await emulator?.stop();
  }, ENGINE_TIMEOUT_MS);

  it("gets the Development tag, previews clean after up, and leaves a tag changed in the console alone", { timeout: ENGINE_TIMEOUT_MS }, async () => {
    const preview = await stack.run(["preview", "--stack", stack.stackName]);
    expect(plain(preview.stdout)).toMatch(/\+ 4 to create/);
    await stack.up();
    const { pipelineId, tagIds } = (await stack.outputs()) as { pipelineId: string; tagIds: string[] };
    expect(tagIds).toEqual([DEVELOPMENT_TAG_ID]);
    const live = async () => (await web.findOne("/pipelines/{id}", pipelineSchema, { params: { id: pipelineId } }))!;
    expect((await live()).tags).toEqual([DEVELOPMENT_TAG_ID]);
    expect(await web.get("/tags/{id}", { params: { id: DEVELOPMENT_TAG_ID } })).toMatchObject({ name: "Development", system: true });
    expect(plain((await stack.preview(["--expect-no-changes"])).stdout)).toMatch(/4 unchanged/);

    // Moved to Production in the console: the program sets no tags, so nothing to change.
    const current = await web.get("/pipelines/{id}", { params: { id: pipelineId } }) as { result: Array<Record<string, unknown>> };
    await web.put("/pipelines/{id}", { params: { id: pipelineId }, body: { ...current.result[0], tags: [PRODUCTION_TAG_ID] } });
    expect(plain((await stack.preview(["--expect-no-changes"])).stdout)).toMatch(/4 unchanged/);
    expect((await live()).tags).toEqual([PRODUCTION_TAG_ID]);

    await stack.destroy();
    expect(await web.findOne("/pipelines/{id}", pipelineSchema, { params: { id: pipelineId } })).toBeUndefined();
  });
});
