import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { ConsoleClient, webClient } from "../support/web.js";
import { plain, yamlProgram, type YamlProgram } from "../support/yaml.js";

// Twenty topics of one API source sent to one destination in a single `pulumi up`, on each host.
// The platform keeps one binding per (source, destination) and applies each link as a
// read-modify-write of it; the emulator does the same, so links written at once drop each
// other's topics. pulumi-cdc attaches (and detaches) the links of one destination one at a time
// within a run: after a first preview and a plain up every link holds, a preview is clean, and
// destroy detaches them all. Without those turns the binding keeps only some of the twenty.

const RESOURCES = Array.from({ length: 20 }, (_, i) => `r${String(i + 1).padStart(2, "0")}`);
const SECRETS = { hubspotToken: "pat-HUBSPOT-links-5d2a", snowflakePrivateKey: "MIIEvQ-example" };

/** The YAML form: YAML has no loops, so the twenty links are written out. */
function yamlText(): string {
  const links = RESOURCES.map((r) =>
    [`  ${r}ToWarehouse:`, "    type: cdc:index:TopicDestination", "    properties:", `      topicId: source_\${crm.id}.hubspot.${r}`, "      destinationId: ${warehouse.id}"].join("\n"),
  );
  return [
    "name: cdc-e2e-api-source-links-yaml",
    "runtime: yaml",
    "config:",
    "  hubspotToken: { type: string, secret: true }",
    "  snowflakePrivateKey: { type: string, secret: true }",
    "resources:",
    "  crm:",
    "    type: cdc:sources:Hubspot",
    "    properties:",
    "      name: crm-links-yaml-${pulumi.stack}",
    `      resources: [${RESOURCES.join(", ")}]`,
    "      token: ${hubspotToken}",
    "  warehouse:",
    "    type: cdc:destinations:Snowflake",
    "    properties:",
    "      name: crm-links-yaml-warehouse-${pulumi.stack}",
    "      snowflakeUrlName: acme.snowflakecomputing.com",
    "      snowflakeUserName: CDC_LOADER",
    "      snowflakePrivateKey: ${snowflakePrivateKey}",
    "      snowflakeDatabaseName: ANALYTICS",
    "      snowflakeSchemaName: HUBSPOT",
    ...links,
    "outputs:",
    "  sourceId: ${crm.id}",
    "  destinationId: ${warehouse.id}",
    "",
  ].join("\n");
}

const HOSTS: Array<{ host: string; program(): Promise<{ dir: string; dispose(): Promise<void> }>; config: Record<string, string> }> = [
  {
    host: "the provider plugin (YAML)",
    async program(): Promise<{ dir: string; dispose(): Promise<void> }> {
      const source = await mkdtemp(join(tmpdir(), "pulumi-cdc-links-yaml-"));
      await writeFile(join(source, "Pulumi.yaml"), yamlText());
      const program: YamlProgram = await yamlProgram(source);
      await rm(source, { recursive: true, force: true });
      return program;
    },
    config: {},
  },
  {
    host: "the dynamic providers (TypeScript)",
    async program() {
      return { dir: join(__dirname, "fixtures", "api-source-links-ts"), dispose: async () => undefined };
    },
    config: { resources: JSON.stringify(RESOURCES) },
  },
];

describe.each(HOSTS)("twenty links to one destination in one run, on $host", ({ program: makeProgram, config }) => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let program: { dir: string; dispose(): Promise<void> };
  let stack: TestStack;

  /** The topics of the source the API sends to the destination: each topic asked (a topic not sent answers 404). */
  const sent = async (source: string, destination: string) => {
    const topics = RESOURCES.map((r) => `source_${source}.hubspot.${r}`);
    const answers = await Promise.all(topics.map((t) => web.get("/topics/{t}/destinations/{d}", { params: { t, d: destination } }).then(() => true, () => false)));
    return topics.filter((_, i) => answers[i]);
  };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    program = await makeProgram();
    stack = await TestStack.create(program.dir, { stackName: `links-${process.pid}` });
    await stack.useApi(emulator, config, SECRETS);
  }, ENGINE_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.cleanup();
    await program?.dispose();
    await web?.close();
    await emulator?.stop();
  }, ENGINE_TIMEOUT_MS);

  it("previews, goes up with a plain up, and every link holds; a preview after is clean; destroy detaches them all", { timeout: ENGINE_TIMEOUT_MS }, async () => {
    const preview = await stack.run(["preview", "--stack", stack.stackName]);
    // The stack, the source, the destination and the twenty links.
    expect(plain(preview.stdout)).toMatch(/\+ 23 to create/);

    const up = await stack.up();
    expect(plain(up.stdout)).toMatch(/\+ 23 created/);
    const { sourceId, destinationId } = (await stack.outputs()) as { sourceId: string; destinationId: string };
    expect(await sent(sourceId, destinationId)).toEqual(RESOURCES.map((r) => `source_${sourceId}.hubspot.${r}`));
    expect(plain((await stack.preview(["--expect-no-changes"])).stdout)).toMatch(/23 unchanged/);

    const destroy = await stack.destroy();
    expect(plain(destroy.stdout)).toMatch(/- 23 deleted/);
    expect(JSON.stringify(destroy.output)).not.toContain(SECRETS.hubspotToken);
  });
});
