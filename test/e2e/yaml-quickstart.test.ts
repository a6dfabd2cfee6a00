import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { clientCredentialSchema, destinationConnectorSchema, destinationEnvelopeSchema, sourceConnectorSchema } from "../../provider/client/index.js";
import { ENGINE_TIMEOUT_MS, TestStack, type CommandResult } from "../support/pulumi.js";
import { previewReadmeProgram, readmeProgram } from "../support/readme-programs.js";
import { tagItems, ConsoleClient, webClient } from "../support/web.js";
import { plain, REPO_ROOT, yamlProgram, type YamlProgram } from "../support/yaml.js";
import { z } from "zod";

// The YAML quickstart (examples/yaml-quickstart) on the provider plugin pulumi-resource-cdc,
// under the real engine and pulumi-language-yaml, against the emulator: up, an empty preview,
// a console edit of the destination seen by preview (row, warning, --diff), up reconciles,
// destroy leaves nothing. Credentials come from the CDC_* environment, the program's two
// secrets from `pulumi config set --secret`. Then README.md's YAML program, as the README prints
// it, previews on a fresh stack against the same emulator.

const DB_PASSWORD = "PGPASS-YAML-SENTINEL-41f0";
const SNOWFLAKE_KEY = "SFKEY-YAML-SENTINEL-c7d2";
const EDITED_SCHEMA = "HOTFIX";

/** Every file under a directory, concatenated: the backend's state, history, backups and logs. */
async function readTree(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name), "latin1")));
  return texts.join("\n");
}

describe("the YAML quickstart on the provider plugin under the real engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let program: YamlProgram;
  let stack: TestStack;
  /** Everything any command printed, for the secret checks. */
  const printed: string[] = [];
  const record = (r: CommandResult) => (printed.push(r.output), { ...r, output: plain(r.output), stdout: plain(r.stdout) });

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    program = await yamlProgram(join(REPO_ROOT, "examples", "yaml-quickstart"));
    stack = await TestStack.create(program.dir, {
      stackName: "e2e",
      env: { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret },
    });
    await stack.setConfigs({}, { dbPassword: DB_PASSWORD, snowflakePrivateKey: SNOWFLAKE_KEY });
  });

  afterAll(async () => {
    await stack?.cleanup();
    await program?.dispose();
    await web?.close();
    await emulator?.stop();
  });

  const liveDestination = async (id: string) => (await web.get("/destinations/{id}", { params: { id }, schema: destinationEnvelopeSchema })).result[0]!;
  let outputs: Record<string, unknown>;

  it("1. up creates the six resources, then a preview has no changes and no secret is in plain text", async () => {
    // A new user's first command on the fresh stack: the preview plans every create and fails nothing.
    const first = record(await stack.preview());
    expect(first.stdout).toMatch(/\+ 6 to create/);
    const up = record(await stack.up());
    expect(up.stdout).toMatch(/\+ 6 created/);
    for (const [type, name] of [
      ["Tag", "ownerTag"],
      ["Tag", "piiTag"],
      ["Source", "orders"],
      ["Destination", "warehouse"],
      ["ClientCredential", "dbt"],
    ]) {
      expect(up.stdout).toMatch(new RegExp(`\\+\\s+cdc:index:${type}\\s+${name}\\s+created`));
    }

    outputs = await stack.outputs();
    expect(outputs).toMatchObject({
      sourceId: expect.stringMatching(/^[0-9a-f]+$/),
      destinationId: expect.stringMatching(/^[0-9a-f]+$/),
      destinationStatus: "Active",
      sourceTopics: ["public.orders", "public.customers"],
      dbtClientId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      dbtClientSecret: expect.any(String),
    });
    expect((await liveDestination(outputs.destinationId as string)).config!["snowflake.schema.name"]).toBe("RAW");

    const preview = record(await stack.preview(["--expect-no-changes"]));
    expect(preview.stdout).toMatch(/6 unchanged/);

    // Secrets: the program's two, the credential's secret and the API's client secret are all
    // encrypted in the checkpoint and in every file of the backend (history, backups).
    const exported = await stack.exportState();
    const files = await readTree(stack.backendDir);
    const stackConfig = await readFile(join(program.dir, "Pulumi.e2e.yaml"), "utf8");
    for (const secret of [DB_PASSWORD, SNOWFLAKE_KEY, outputs.dbtClientSecret as string, emulator.clientSecret]) {
      expect(exported).not.toContain(secret);
      expect(files).not.toContain(secret);
      expect(stackConfig).not.toContain(secret);
    }
    expect(exported).toContain("ciphertext");
    // (The files read are the stack's: its checkpoint is among them.)
    expect(files).toContain(outputs.destinationId as string);
    expect(stackConfig).toMatch(/dbPassword:\s+secure:/);
  });

  it("2. a console edit of the destination: the preview row names config, the warning and --diff show the key, secrets masked", async () => {
    const id = outputs.destinationId as string;
    // A person in the web console: GET the destination, PUT it back with one key changed.
    const live = await liveDestination(id);
    expect(live.config!["snowflake.private.key"]).toBe("********");
    await web.put("/destinations/{id}", {
      params: { id },
      body: { name: live.name, connector: live.connector, config: { ...live.config, "snowflake.schema.name": EDITED_SCHEMA } },
    });

    // A plain preview, as CI runs it: the destination's row is an update naming the top-level
    // property (the engine's row summary shows top-level properties only), the drift warning
    // names the nested key with both values, and --expect-no-changes fails.
    const drifted = record(await stack.run(["preview", "--expect-no-changes", "--stack", stack.stackName], { allowFailure: true }));
    expect(drifted.code).not.toBe(0);
    expect(drifted.output).toMatch(/~\s+cdc:index:Destination\s+warehouse\s+update\s+\[diff: ~config\]/);
    expect(drifted.output).toMatch(/~ 1 to update/);
    expect(drifted.output).toMatch(/5 unchanged/);
    expect(drifted.output).toMatch(/no changes were expected for preview but changes were proposed/);
    const diagnostics = drifted.output.slice(drifted.output.indexOf("Diagnostics:"));
    expect(diagnostics).toMatch(/cdc:index:Destination \(warehouse\):/);
    expect(diagnostics).toContain(`warning: drift: destination "warehouse-dev" (${id}) changed outside Pulumi`);
    expect(diagnostics).toMatch(/^\s*-snowflake\.schema\.name: RAW$/m);
    expect(diagnostics).toMatch(new RegExp(`^\\s*\\+snowflake\\.schema\\.name: ${EDITED_SCHEMA}$`, "m"));
    expect(diagnostics).toMatch(/^\s*snowflake\.private\.key: \*{8}$/m);
    // Only the destination: no other resource has a row of its own.
    expect(drifted.output).not.toMatch(/cdc:index:(Source|Tag|ClientCredential)\s+\w+\s+update/);

    // `pulumi-cdc drift` reads the plugin's stack as it reads the dynamic classes': exit 2, the
    // destination's masked diff, the source clean.
    const cli = await stack.drift(["--json"]);
    printed.push(cli.stdout, cli.stderr);
    expect(cli.code, cli.stderr).toBe(2);
    const report = JSON.parse(cli.stdout) as { resources: Array<{ type: string; id: string; drift: { detected: boolean; maskedDiff: string } }> };
    const byType = (type: string) => report.resources.find((r) => r.type === type)!;
    expect(byType("destination")).toMatchObject({ id, drift: { detected: true, maskedDiff: expect.stringContaining(`+snowflake.schema.name: ${EDITED_SCHEMA}`) } });
    expect(byType("source").drift.detected).toBe(false);

    // With a refresh and --diff: the refresh reads the edit, and the update puts RAW back.
    const diff = record(await stack.preview(["--refresh"]));
    const refreshPart = diff.stdout.slice(0, diff.stdout.indexOf("(update)"));
    const updatePart = diff.stdout.slice(diff.stdout.indexOf("(update)"));
    expect(refreshPart).toMatch(/cdc:index:Destination: \(refresh\)/);
    expect(refreshPart).toMatch(new RegExp(`~ snowflake\\.schema\\.name\\s*: "RAW" => "${EDITED_SCHEMA}"`));
    expect(refreshPart).toMatch(/snowflake\.private\.key\s*: \[secret\]/);
    expect(updatePart).toMatch(new RegExp(`^\\s*\\[id=${id}\\]$`, "m"));
    expect(updatePart).toMatch(new RegExp(`~ config: \\{\\s*~ snowflake\\.schema\\.name: "${EDITED_SCHEMA}" => "RAW"\\s*\\}`));
    expect(diff.stdout).toMatch(/~ 1 to update/);

    // The private key (and the password) never appear in plain text in any output.
    for (const out of printed) {
      expect(out).not.toContain(SNOWFLAKE_KEY);
      expect(out).not.toContain(DB_PASSWORD);
    }
    // Nothing was written: the console's edit is still there.
    expect((await liveDestination(id)).config!["snowflake.schema.name"]).toBe(EDITED_SCHEMA);
  });

  it("3. up reconciles the destination, and the next preview has no changes", async () => {
    const id = outputs.destinationId as string;
    const up = record(await stack.up());
    expect(up.stdout).toMatch(/~\s+cdc:index:Destination\s+warehouse\s+updated/);
    expect(up.stdout).toMatch(/~ 1 updated/);
    expect(up.stdout).toMatch(/5 unchanged/);
    expect((await liveDestination(id)).config!["snowflake.schema.name"]).toBe("RAW");
    expect((await stack.outputs())["destinationId"]).toBe(id);

    const preview = record(await stack.preview(["--expect-no-changes"]));
    expect(preview.stdout).toMatch(/6 unchanged/);
    expect(preview.output).not.toMatch(/drift:/);
    for (const out of printed) expect(out).not.toContain(SNOWFLAKE_KEY);
  });

  it("4. destroy leaves no source, destination, tag or client credential of the stack", async () => {
    const credentials = () => web.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) });
    expect((await credentials()).map((c) => c.client_id)).toContain(outputs.dbtClientId);

    const destroy = record(await stack.destroy());
    expect(destroy.stdout).toMatch(/- 6 deleted/);

    expect(await web.listAll("/sources", {}, sourceConnectorSchema)).toEqual([]);
    expect(await web.listAll("/destinations", {}, destinationConnectorSchema)).toEqual([]);
    const tags = tagItems(await web.get("/tags", { query: { page_size: 100 } })) as Array<{ name: string; system?: boolean }>;
    expect(tags.filter((t) => !t.system)).toEqual([]);
    // Only the emulator's own bootstrap credential is left.
    expect((await credentials()).map((c) => c.client_id)).toEqual([emulator.clientId]);
    for (const out of printed) expect(out).not.toContain(SNOWFLAKE_KEY);
  });

  it("5. README.md's YAML program (its Pulumi.yaml as printed) previews on a fresh stack: three creates", async () => {
    const source = await mkdtemp(join(tmpdir(), "pulumi-cdc-readme-yaml-"));
    let readme: YamlProgram | undefined;
    let readmeStack: TestStack | undefined;
    try {
      await writeFile(join(source, "Pulumi.yaml"), await readmeProgram("yaml"));
      readme = await yamlProgram(source);
      readmeStack = await TestStack.create(readme.dir, {
        stackName: "readme",
        env: { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret },
      });
      await previewReadmeProgram(readmeStack, "yaml");
    } finally {
      await readmeStack?.dispose();
      await readme?.dispose();
      await rm(source, { recursive: true, force: true });
    }
  });
});
