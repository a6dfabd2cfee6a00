import { existsSync } from "node:fs";
import { appendFile, copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { clientCredentialSchema, destinationConnectorSchema, destinationEnvelopeSchema, sourceConnectorSchema } from "../../provider/client/index.js";
import { run, toolchainValue } from "../support/process.js";
import { ENGINE_TIMEOUT_MS, TestStack, type CommandResult } from "../support/pulumi.js";
import { previewReadmeProgram, readmeProgram } from "../support/readme-programs.js";
import { tagItems, ConsoleClient, webClient } from "../support/web.js";

// The Go quickstart (examples/go-quickstart: tags, a typed cdc:sources:Postgresql, a typed
// cdc:destinations:Snowflake, a client credential) built against the Go SDK generated from the
// plugin's schema (generated/sdks/go/cdc, by a go.mod replace) and run under the real engine by a Go language host
// (Pulumi's when the machine has one, else tools/pulumi-language-go), on the provider plugin
// pulumi-resource-cdc of this checkout (Pulumi.yaml plugins.providers -> bin/), against the
// emulator: up, an empty preview, pulumi import of the typed destination into a second stack
// (typed Go code that previews with no changes), destroy. The Pulumi Go SDK comes from the Go module cache (or
// the module proxy, once). A Go build error fails the test: the program is built first, and the
// host fails the update with the compiler's output. Then README.md's Go program, as the README
// prints it, previews on a fresh stack against the same emulator (the example's go.mod and go.sum).

const REPO_ROOT = join(__dirname, "..", "..");
const SDK_DIR = join(REPO_ROOT, "generated", "sdks", "go", "cdc");
const SDK_MODULE = "github.com/pulumi-cdc/pulumi-cdc/generated/sdks/go/cdc";
const DB_PASSWORD = "PGPASS-GO-SENTINEL-5e1b";
const SNOWFLAKE_KEY = "SFKEY-GO-SENTINEL-90aa";

/**
 * The PATH with a Go language host on it: scripts/toolchain.sh's cdc_ensure_codegen builds
 * tools/ into the toolchain cache when needed (npm test's setup has already done so) and links
 * pulumi-language-go beside the CLI unless the machine has its own.
 */
const pathWithGoHost = () => toolchainValue("cdc_ensure_codegen", "PATH");

/** A copy of the example in a temporary directory: go.mod's replace made absolute, plugins.providers -> bin/. */
async function goProgram(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pulumi-cdc-go-"));
  await cp(join(REPO_ROOT, "examples", "go-quickstart"), dir, { recursive: true, filter: (src) => !/Pulumi\.[^/]+\.yaml$/.test(src) });
  const edit = await run("go", ["mod", "edit", `-replace=${SDK_MODULE}=${SDK_DIR}`], { cwd: dir });
  if (edit.code !== 0) throw new Error(`go mod edit: ${edit.output}`);
  const project = join(dir, "Pulumi.yaml");
  const text = await readFile(project, "utf8");
  if (/^plugins:/m.test(text)) throw new Error("examples/go-quickstart/Pulumi.yaml has its own plugins section: the test adds one");
  await writeFile(project, `${text.trimEnd()}\n\nplugins:\n  providers:\n    - name: cdc\n      path: ${JSON.stringify(join(REPO_ROOT, "bin"))}\n`);
  return dir;
}

describe("the Go quickstart on the generated Go SDK under the real engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let stack: TestStack;
  const printed: string[] = [];
  const record = (r: CommandResult) => (printed.push(r.output), r);

  beforeAll(async () => {
    if (!existsSync(join(REPO_ROOT, "dist", "plugin", "main.js"))) throw new Error("dist/plugin/main.js is missing: build first (npm run build, or cdc_build)");
    if (!existsSync(join(SDK_DIR, "go.mod"))) throw new Error("generated/sdks/go/cdc is missing: run npm run generate");
    env = { ...process.env, PATH: await pathWithGoHost() };
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    dir = await goProgram();
    stack = await TestStack.create(dir, {
      stackName: "e2e",
      env: { PATH: env.PATH!, CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret },
    });
    await stack.setConfigs({}, { dbPassword: DB_PASSWORD, snowflakePrivateKey: SNOWFLAKE_KEY });
  }, 1_500_000);

  afterAll(async () => {
    await stack?.cleanup();
    if (dir) await rm(dir, { recursive: true, force: true });
    await web?.close();
    await emulator?.stop();
  });

  it("1. the program, every package of the generated SDK and the Go examples of generated/reference build (go vet clean)", async () => {
    const build = await run("go", ["build", "-o", join(dir, ".program"), "."], { cwd: dir, env });
    expect(build.code, `go build of examples/go-quickstart failed:\n${build.output}`).toBe(0);
    // Each reference page's Go example as a program of its own in the example's module.
    const pages = await readdir(join(REPO_ROOT, "generated", "reference"), { recursive: true });
    let examples = 0;
    for (const page of pages.filter((p) => p.endsWith(".md"))) {
      const code = /```go\n([\s\S]*?)```/.exec(await readFile(join(REPO_ROOT, "generated", "reference", page), "utf8"))?.[1];
      if (!code) continue;
      const target = join(dir, "docs-examples", page.replace(/\.md$/, "").replace(/[/\\]/g, "-"));
      await mkdir(target, { recursive: true });
      await writeFile(join(target, "main.go"), code);
      examples++;
    }
    expect(examples).toBeGreaterThan(10);
    // All of the SDK, not only the packages the example imports; vet type-checks without linking.
    const vet = await run("go", ["vet", `${SDK_MODULE}/...`, ".", "./docs-examples/..."], { cwd: dir, env });
    expect(vet.code, `go vet of the generated SDK or of the reference's Go examples failed:\n${vet.output}`).toBe(0);
  });

  let outputs: Record<string, unknown>;

  it("2. up creates the six resources through the Go host; a preview then has no changes", async () => {
    // A new user's first command on the fresh stack: the preview plans every create and fails nothing.
    const first = record(await stack.preview());
    expect(first.stdout).toMatch(/\+ 6 to create/);
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
    const live = (await web.get("/destinations/{id}", { params: { id: outputs.destinationId as string }, schema: destinationEnvelopeSchema })).result[0]!;
    // The typed properties arrive as the platform's keys.
    expect(live.connector).toBe("snowflake");
    expect(live.config).toMatchObject({ "snowflake.schema.name": "RAW", "snowflake.user.name": "CDC_LOADER", "ingestion.mode": "upsert" });

    const preview = record(await stack.preview(["--expect-no-changes"]));
    expect(preview.stdout).toMatch(/6 unchanged/);

    // The program's secrets and the credential's secret are encrypted in the checkpoint.
    const exported = await stack.exportState();
    for (const secret of [DB_PASSWORD, SNOWFLAKE_KEY, outputs.dbtClientSecret as string]) expect(exported).not.toContain(secret);
    for (const out of printed) for (const secret of [DB_PASSWORD, SNOWFLAKE_KEY]) expect(out).not.toContain(secret);
  });

  it("3. pulumi import of the typed Snowflake destination writes typed Go code (the Go host's GenerateProgram), which previews with no changes", async () => {
    // A second stack, in a second copy of the program, adopts the destination the first one made.
    const importDir = await goProgram();
    const imported = await TestStack.create(importDir, {
      stackName: "imported",
      env: { PATH: env.PATH!, CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret },
    });
    try {
      const id = outputs.destinationId as string;
      const code = join(importDir, "main.go");
      record(await imported.run(["import", "cdc:destinations:Snowflake", "warehouse", id, "--yes", "--out", code, "--stack", "imported"]));
      const program = await readFile(code, "utf8");
      expect(program).toContain('destinations.NewSnowflake(ctx, "warehouse", &destinations.SnowflakeArgs{');
      expect(program).toMatch(/SnowflakeSchemaName:\s+pulumi\.String\("RAW"\)/);
      expect(program).toMatch(/IngestionMode:\s+destinations\.SnowflakeIngestionModeUpsert/);
      expect(program).not.toMatch(/Config:|Connector:/);
      expect(program).not.toContain(SNOWFLAKE_KEY);
      // The written program is built by the Go host and previews with no changes.
      const preview = record(await imported.preview(["--expect-no-changes"]));
      expect(preview.stdout).toMatch(/2 unchanged/);
    } finally {
      await imported.dispose();
      await rm(importDir, { recursive: true, force: true });
    }
  });

  it("4. destroy leaves no source, destination, tag or client credential of the stack", async () => {
    const destroy = record(await stack.destroy());
    expect(destroy.stdout).toMatch(/- 6 deleted/);
    expect(await web.listAll("/sources", {}, sourceConnectorSchema)).toEqual([]);
    expect(await web.listAll("/destinations", {}, destinationConnectorSchema)).toEqual([]);
    const tags = tagItems(await web.get("/tags", { query: { page_size: 100 } })) as Array<{ system?: boolean }>;
    expect(tags.filter((t) => !t.system)).toEqual([]);
    const credentials = await web.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) });
    expect(credentials.map((c) => c.client_id)).toEqual([emulator.clientId]);
  });

  it("5. a program that does not compile fails the preview with the compiler's message", async () => {
    await appendFile(join(dir, "main.go"), '\nvar _ int = "not an int"\n');
    const preview = await stack.preview([], { allowFailure: true });
    expect(preview.code).not.toBe(0);
    expect(preview.output).toMatch(/go build failed|error in compiling Go/);
    expect(preview.output).toMatch(/main\.go:\d+:\d+: cannot use "not an int"/);
  });

  it("6. README.md's Go program (its main.go as printed, the example's go.mod) previews on a fresh stack: three creates", async () => {
    const readme = await mkdtemp(join(tmpdir(), "pulumi-cdc-readme-go-"));
    let readmeStack: TestStack | undefined;
    try {
      for (const file of ["go.mod", "go.sum"]) await copyFile(join(REPO_ROOT, "examples", "go-quickstart", file), join(readme, file));
      const edit = await run("go", ["mod", "edit", `-replace=${SDK_MODULE}=${SDK_DIR}`], { cwd: readme });
      expect(edit.code, edit.output).toBe(0);
      await writeFile(join(readme, "main.go"), await readmeProgram("go"));
      await writeFile(
        join(readme, "Pulumi.yaml"),
        `name: cdc-go-readme\nruntime: go\nplugins:\n  providers:\n    - name: cdc\n      path: ${JSON.stringify(join(REPO_ROOT, "bin"))}\n`,
      );
      readmeStack = await TestStack.create(readme, {
        stackName: "readme",
        env: { PATH: env.PATH!, CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret },
      });
      await previewReadmeProgram(readmeStack, "go");
    } finally {
      await readmeStack?.dispose();
      await rm(readme, { recursive: true, force: true });
    }
  });
});
