import { existsSync } from "node:fs";
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { clientCredentialSchema, destinationConnectorSchema, destinationEnvelopeSchema, sourceConnectorSchema } from "../../provider/client/index.js";
import { ENGINE_TIMEOUT_MS, TestStack, type CommandResult } from "../support/pulumi.js";
import { previewReadmeProgram, readmeProgram } from "../support/readme-programs.js";
import { toolchainValue } from "../support/process.js";
import { pythonToolchain, type PythonToolchain } from "../support/python.js";
import { tagItems, ConsoleClient, consoleEdit, webClient } from "../support/web.js";

// The Python quickstart (examples/python-quickstart: tags, a typed cdc:sources:Postgresql, a typed
// cdc:destinations:Snowflake, a client credential) on the Python SDK generated from the plugin's
// schema (generated/sdks/python, installed by pip from its sources as requirements.txt says), run under the
// real engine by a Python language host (Pulumi's where the machine has one, else
// tools/pulumi-language-python) from the virtual environment `venv` that the host makes, on the
// provider plugin of this checkout (Pulumi.yaml plugins.providers -> bin/), against the emulator:
// on a fresh stack a preview, a plain up, an empty preview, a console edit seen by a plain
// preview and by pulumi-cdc drift, an up that reconciles, pulumi import of the destination
// writing Python that previews with no changes, destroy; and a program with a misspelt keyword
// argument fails the preview with Python's TypeError. pip installs from the toolchain's cached
// wheels only (PIP_NO_INDEX). Then README.md's Python program, as the README prints it, previews
// on a fresh stack against the same emulator, in the virtual environment the quickstart made
// (the same requirements). Without Python on the machine the tests skip with a one-line warning.

const REPO_ROOT = join(__dirname, "..", "..");
const DB_PASSWORD = "PGPASS-PY-SENTINEL-7c2d";
const SNOWFLAKE_KEY = "SFKEY-PY-SENTINEL-41fe";
const EDITED_SCHEMA = "RAW_BY_HAND";

/** The PATH with the Python language host on it (cdc_ensure_codegen links ours unless the machine has Pulumi's). */
const pathWithPythonHost = () => toolchainValue("cdc_ensure_codegen", "PATH");

/**
 * A copy of the example in a temporary directory, with a copy of generated/sdks/python beside it (pip builds
 * a local project in place, writing build/ and *.egg-info, so never in the checkout):
 * requirements.txt's ../../generated/sdks/python points at the copy, plugins.providers -> bin/.
 */
async function pythonProgram(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "pulumi-cdc-py-"));
  const dir = join(root, "program");
  await cp(join(REPO_ROOT, "examples", "python-quickstart"), dir, { recursive: true, filter: (src) => !/Pulumi\.[^/]+\.yaml$|\/venv$|__pycache__/.test(src) });
  await cp(join(REPO_ROOT, "generated", "sdks", "python"), join(root, "sdk-python"), { recursive: true });
  const requirements = await readFile(join(dir, "requirements.txt"), "utf8");
  if (!/^\.\.\/\.\.\/generated\/sdks\/python$/m.test(requirements)) throw new Error("examples/python-quickstart/requirements.txt no longer installs ../../generated/sdks/python");
  await writeFile(join(dir, "requirements.txt"), requirements.replace(/^\.\.\/\.\.\/generated\/sdks\/python$/m, join(root, "sdk-python")));
  const project = join(dir, "Pulumi.yaml");
  const text = await readFile(project, "utf8");
  if (/^plugins:/m.test(text)) throw new Error("examples/python-quickstart/Pulumi.yaml has its own plugins section: the test adds one");
  await writeFile(project, `${text.trimEnd()}\n\nplugins:\n  providers:\n    - name: cdc\n      path: ${JSON.stringify(join(REPO_ROOT, "bin"))}\n`);
  return dir;
}

describe("the Python quickstart on the generated Python SDK under the real engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let py: PythonToolchain | null;
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let dir: string;
  let stackEnv: Record<string, string>;
  let stack: TestStack;
  const printed: string[] = [];
  const record = (r: CommandResult) => (printed.push(r.output), r);
  const liveDestination = async (id: string) => (await web.get("/destinations/{id}", { params: { id }, schema: destinationEnvelopeSchema })).result[0]!;

  beforeAll(async () => {
    py = await pythonToolchain();
    if (!py) return;
    if (!existsSync(join(REPO_ROOT, "dist", "plugin", "main.js"))) throw new Error("dist/plugin/main.js is missing: build first (npm run build, or cdc_build)");
    const path = await pathWithPythonHost();
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    dir = await pythonProgram();
    stackEnv = { PATH: path, ...py.pipEnv, CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret };
    stack = await TestStack.create(dir, { stackName: "e2e", env: stackEnv });
    await stack.setConfigs({}, { dbPassword: DB_PASSWORD, snowflakePrivateKey: SNOWFLAKE_KEY });
  }, 1_500_000);

  afterAll(async () => {
    await stack?.cleanup();
    if (dir) await rm(join(dir, ".."), { recursive: true, force: true });
    await web?.close();
    await emulator?.stop();
  });

  let outputs: Record<string, unknown>;

  it("1. the first preview makes the virtual environment and plans six creates; up creates them; a preview then has no changes", async (ctx) => {
    if (!py) return ctx.skip();
    // A new user's first command on the fresh stack, with no venv yet.
    const first = record(await stack.preview());
    expect(first.stdout).toMatch(/\+ 6 to create/);
    expect(existsSync(join(dir, "venv", "bin", "python"))).toBe(true);
    const up = record(await stack.up());
    expect(up.stdout).toMatch(/\+ 6 created/);
    for (const [token, name] of [
      ["cdc:index:Tag", "owner"],
      ["cdc:index:Tag", "pii"],
      ["cdc:sources:Postgresql", "orders"],
      ["cdc:destinations:Snowflake", "warehouse"],
      ["cdc:index:ClientCredential", "dbt"],
    ]) {
      expect(up.stdout).toMatch(new RegExp(`\\+\\s+${token}\\s+${name}\\s+created`));
    }
    outputs = await stack.outputs();
    expect(outputs).toMatchObject({
      tags: ["team-data-e2e", "pii-e2e"],
      sourceId: expect.stringMatching(/^[0-9a-f]+$/),
      sourceTopics: ["public.orders", "public.customers"],
      destinationId: expect.stringMatching(/^[0-9a-f]+$/),
      destinationName: "warehouse-e2e",
      destinationStatus: "Active",
      dbtClientId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      dbtClientSecret: expect.any(String),
    });
    const live = await liveDestination(outputs.destinationId as string);
    // The typed keyword arguments arrive as the platform's keys.
    expect(live.connector).toBe("snowflake");
    expect(live.config).toMatchObject({ "snowflake.schema.name": "RAW", "snowflake.user.name": "CDC_LOADER", "ingestion.mode": "upsert" });

    const preview = record(await stack.preview(["--expect-no-changes"]));
    expect(preview.stdout).toMatch(/6 unchanged/);

    const exported = await stack.exportState();
    for (const secret of [DB_PASSWORD, SNOWFLAKE_KEY, outputs.dbtClientSecret as string]) expect(exported).not.toContain(secret);
    for (const out of printed) for (const secret of [DB_PASSWORD, SNOWFLAKE_KEY]) expect(out).not.toContain(secret);
  });

  it("2. a console edit of the destination shows in a plain preview and in pulumi-cdc drift; up reconciles it", async (ctx) => {
    if (!py) return ctx.skip();
    const id = outputs.destinationId as string;
    await consoleEdit(web, "destination", id, { config: { "snowflake.schema.name": EDITED_SCHEMA } });

    const drifted = record(await stack.preview(["--expect-no-changes"], { allowFailure: true }));
    expect(drifted.code).not.toBe(0);
    // The preview's detailed rows: the destination only, its typed property put back to RAW.
    expect(drifted.stdout).toMatch(/~ cdc:destinations:Snowflake: \(update\)\s+\[id=\w+\]\s+\[urn=[^\]]+::warehouse\]/);
    expect(drifted.stdout).toMatch(/~ snowflakeSchemaName: "RAW" => "RAW"/);
    expect(drifted.stdout).toMatch(/5 unchanged/);
    expect(drifted.output).toMatch(/~ 1 to update/);
    expect(drifted.output).toContain(`warning: drift: destination "warehouse-e2e" (${id}) changed outside Pulumi`);

    const cli = await stack.drift(["--json"]);
    printed.push(cli.stdout, cli.stderr);
    expect(cli.code, cli.stderr).toBe(2);
    const report = JSON.parse(cli.stdout) as { resources: Array<{ id: string; drift: { detected: boolean; maskedDiff: string } }> };
    expect(report.resources.find((r) => r.id === id)).toMatchObject({ drift: { detected: true, maskedDiff: expect.stringContaining(`+snowflake.schema.name: ${EDITED_SCHEMA}`) } });
    expect(report.resources.filter((r) => r.drift.detected).map((r) => r.id)).toEqual([id]);

    const up = record(await stack.up());
    expect(up.stdout).toMatch(/~\s+cdc:destinations:Snowflake\s+warehouse\s+updated/);
    expect(up.stdout).toMatch(/~ 1 updated/);
    expect((await liveDestination(id)).config!["snowflake.schema.name"]).toBe("RAW");
    const preview = record(await stack.preview(["--expect-no-changes"]));
    expect(preview.stdout).toMatch(/6 unchanged/);
    for (const out of printed) expect(out).not.toContain(SNOWFLAKE_KEY);
  });

  it("3. pulumi import of the typed Snowflake destination writes Python (the host's GenerateProgram), which previews with no changes", async (ctx) => {
    if (!py) return ctx.skip();
    const importDir = await pythonProgram();
    // In the quickstart's virtualenv, as test 6's program: test 1's first preview made it from the
    // same requirements.txt (the host making one is test 1's), and a second would cost a pip install.
    const venv = join(dir, "venv");
    expect(existsSync(join(venv, "bin", "python"))).toBe(true);
    const project = join(importDir, "Pulumi.yaml");
    const text = await readFile(project, "utf8");
    expect(text).toMatch(/^    virtualenv: venv$/m);
    await writeFile(project, text.replace(/^    virtualenv: venv$/m, `    virtualenv: ${JSON.stringify(venv)}`));
    const imported = await TestStack.create(importDir, { stackName: "imported", env: stackEnv });
    try {
      const code = join(importDir, "__main__.py");
      record(await imported.run(["import", "cdc:destinations:Snowflake", "warehouse", outputs.destinationId as string, "--yes", "--out", code, "--stack", "imported"]));
      const program = await readFile(code, "utf8");
      expect(program).toMatch(/import pulumi_cdc as cdc/);
      expect(program).toMatch(/warehouse = cdc\.destinations\.Snowflake\("warehouse",/);
      expect(program).toMatch(/snowflake_schema_name="RAW"/);
      expect(program).toMatch(/ingestion_mode=cdc\.destinations\.SnowflakeIngestionMode\.UPSERT/);
      expect(program).not.toContain(SNOWFLAKE_KEY);
      const preview = record(await imported.preview(["--expect-no-changes"]));
      expect(preview.stdout).toMatch(/2 unchanged/);
    } finally {
      await imported.dispose();
      await rm(join(importDir, ".."), { recursive: true, force: true });
    }
  });

  it("4. destroy leaves no source, destination, tag or client credential of the stack", async (ctx) => {
    if (!py) return ctx.skip();
    const destroy = record(await stack.destroy());
    expect(destroy.stdout).toMatch(/- 6 deleted/);
    expect(await web.listAll("/sources", {}, sourceConnectorSchema)).toEqual([]);
    expect(await web.listAll("/destinations", {}, destinationConnectorSchema)).toEqual([]);
    const tags = tagItems(await web.get("/tags", { query: { page_size: 100 } })) as Array<{ system?: boolean }>;
    expect(tags.filter((t) => !t.system)).toEqual([]);
    const credentials = await web.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) });
    expect(credentials.map((c) => c.client_id)).toEqual([emulator.clientId]);
  });

  it("5. a misspelt keyword argument fails the preview with Python's TypeError, pointing at the program's line", async (ctx) => {
    if (!py) return ctx.skip();
    await appendFile(join(dir, "__main__.py"), '\ncdc.Tag("typo", name="typo", typ=["sources"])\n');
    const preview = await stack.preview([], { allowFailure: true });
    expect(preview.code).not.toBe(0);
    expect(preview.output).toMatch(/Program failed with an unhandled exception/);
    expect(preview.output).toMatch(/__main__\.py", line \d+, in <module>/);
    expect(preview.output).toMatch(/TypeError: .*unexpected keyword argument 'typ'/);
  });

  it("6. README.md's Python program (its __main__.py as printed) previews on a fresh stack in the quickstart's virtualenv: three creates", async (ctx) => {
    if (!py) return ctx.skip();
    const venv = join(dir, "venv");
    // Made by test 1's first preview from the same requirements.txt; the README's program reuses it.
    expect(existsSync(join(venv, "bin", "python"))).toBe(true);
    const readme = await mkdtemp(join(tmpdir(), "pulumi-cdc-readme-py-"));
    let readmeStack: TestStack | undefined;
    try {
      await writeFile(join(readme, "__main__.py"), await readmeProgram("python"));
      await writeFile(
        join(readme, "Pulumi.yaml"),
        [
          "name: cdc-python-readme",
          "runtime:",
          "  name: python",
          "  options:",
          `    virtualenv: ${JSON.stringify(venv)}`,
          "plugins:",
          "  providers:",
          "    - name: cdc",
          `      path: ${JSON.stringify(join(REPO_ROOT, "bin"))}`,
          "",
        ].join("\n"),
      );
      readmeStack = await TestStack.create(readme, { stackName: "readme", env: stackEnv });
      await previewReadmeProgram(readmeStack, "python");
    } finally {
      await readmeStack?.dispose();
      await rm(readme, { recursive: true, force: true });
    }
  });
});
