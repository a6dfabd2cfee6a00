import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { toolchainTool } from "../support/process.js";
import { ENGINE_TIMEOUT_MS, TestStack, type CommandResult } from "../support/pulumi.js";
import { ConsoleClient, webClient } from "../support/web.js";
import { plain } from "../support/yaml.js";

// `pulumi import` of a typed cdc:destinations:Snowflake in a TypeScript project, under the real
// engine and this repository's Node.js language host (scripts/toolchain/pulumi-language-nodejs.js),
// whose GenerateProgram is tools/pulumi-cdc-codegen's `program` mode (pkg/v3's Node.js
// generator): the TypeScript it writes imports the Node.js SDK generated from the plugin's schema
// (generated/sdks/nodejs, the npm package pulumi-cdc-sdk, linked into the project's node_modules), compiles
// under ts-node as written, previews with no changes (the private key comes as the API's mask), and
// destroy deletes the destination.

const REPO_ROOT = resolve(__dirname, "..", "..");
const SNOWFLAKE_KEY = "SF-TS-SENTINEL-41d7";

/** The generator GenerateProgram runs: PULUMI_CDC_CODEGEN (set by the toolchain), else built now by cdc_ensure_codegen. */
const codegen = () => toolchainTool("PULUMI_CDC_CODEGEN", "cdc_ensure_codegen");

/**
 * A TypeScript project in a temporary directory, on this checkout's plugin (plugins.providers ->
 * bin/): package.json depends on @pulumi/pulumi and on the generated SDK by file path; its
 * node_modules links @pulumi to the repository's copy and pulumi-cdc-sdk to generated/sdks/nodejs (what
 * `npm install` of those dependencies would do, offline), so program and SDK share one @pulumi/pulumi.
 */
async function tsProject(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pulumi-cdc-ts-"));
  const header = ["name: cdc-import-ts", "runtime:", "  name: nodejs", "  options:", "    typescript: true", "plugins:", "  providers:", "    - name: cdc", `      path: ${JSON.stringify(join(REPO_ROOT, "bin"))}`];
  await writeFile(join(dir, "Pulumi.yaml"), `${header.join("\n")}\n`);
  const pulumiVersion = (JSON.parse(await readFile(join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as { version: string }).version;
  await writeFile(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "cdc-import-ts", private: true, main: "index.ts", dependencies: { "@pulumi/pulumi": pulumiVersion, "pulumi-cdc-sdk": `file:${join(REPO_ROOT, "generated", "sdks", "nodejs")}` } }, null, 2)}\n`,
  );
  await writeFile(
    join(dir, "tsconfig.json"),
    `${JSON.stringify({ compilerOptions: { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", esModuleInterop: true, skipLibCheck: true, types: ["node"] }, files: ["index.ts"] }, null, 2)}\n`,
  );
  await writeFile(join(dir, "index.ts"), "// Written by pulumi import.\nexport {};\n");
  await mkdir(join(dir, "node_modules"));
  await symlink(join(REPO_ROOT, "node_modules", "@pulumi"), join(dir, "node_modules", "@pulumi"), "dir");
  await symlink(join(REPO_ROOT, "node_modules", "@types"), join(dir, "node_modules", "@types"), "dir");
  await symlink(join(REPO_ROOT, "generated", "sdks", "nodejs"), join(dir, "node_modules", "pulumi-cdc-sdk"), "dir");
  return dir;
}

const anyItem = z.looseObject({});

describe("pulumi import of a typed Snowflake destination writes TypeScript that previews with no changes", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let dir: string;
  let stack: TestStack;
  let id: string;
  const printed: string[] = [];
  const record = (r: CommandResult) => (printed.push(r.output), { ...r, output: plain(r.output), stdout: plain(r.stdout) });

  beforeAll(async () => {
    if (!existsSync(join(REPO_ROOT, "dist", "plugin", "main.js"))) throw new Error("dist/plugin/main.js is missing: build first (npm run build, or cdc_build)");
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    dir = await tsProject();
    stack = await TestStack.create(dir, {
      stackName: "import-ts",
      // The generated program is type-checked by ts-node in the engine's run, as a user's is:
      // the last test here asserts the compiler's message in the preview.
      typeCheck: true,
      env: { PULUMI_CDC_CODEGEN: await codegen(), CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret },
    });
  });
  afterAll(async () => {
    await stack?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
    await web?.close();
    await emulator?.stop();
  });

  it("imports the destination made in the console as typed TypeScript on pulumi-cdc-sdk, which compiles and previews clean", async () => {
    const config = {
      "snowflake.url.name": "acme.snowflakecomputing.com",
      "snowflake.user.name": "CDC_LOADER",
      "snowflake.private.key": SNOWFLAKE_KEY,
      "snowflake.database.name": "ANALYTICS",
      "snowflake.schema.name": "RAW",
    };
    id = ((await web.post("/destinations", { body: { name: "warehouse", connector: "snowflake", config, created_from: "web" } })) as { id: string }).id;

    const out = join(dir, "index.ts");
    const imported = record(await stack.run(["import", "cdc:destinations:Snowflake", "wh", id, "--yes", "--out", out, "--stack", stack.stackName]));
    expect(imported.stdout).toMatch(/=\s+cdc:destinations:Snowflake\s+wh\s+imported/);
    const code = await readFile(out, "utf8");
    expect(code).toContain('import * as cdc from "pulumi-cdc-sdk";');
    expect(code).toContain('new cdc.destinations.Snowflake("wh", {');
    expect(code).toMatch(/snowflakeSchemaName: "RAW"/);
    expect(code).toMatch(/snowflakePrivateKey: pulumi\.secret\("\*{8}"\)/);
    expect(code).toMatch(/protect: true/);
    expect(code).not.toMatch(/config:|connector:/);
    expect(code).not.toContain(SNOWFLAKE_KEY);

    // The generated code as it is: ts-node compiles it (with the SDK), and the engine finds nothing to change.
    const preview = record(await stack.preview(["--expect-no-changes"]));
    expect(preview.stdout).toMatch(/2 unchanged/);
  });

  it("the program is type-checked against the SDK: a wrong type fails the preview with the compiler's message", async () => {
    const out = join(dir, "index.ts");
    const code = await readFile(out, "utf8");
    await writeFile(out, code.replace('snowflakeSchemaName: "RAW"', "snowflakeSchemaName: 42"));
    const bad = record(await stack.preview([], { allowFailure: true }));
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/index\.ts\(\d+,\d+\): error TS2322: Type 'number' is not assignable to type 'Input<string>/);
    await writeFile(out, code);
  });

  it("keeps the key out of the state and the output; destroy deletes the destination", async () => {
    const exported = await stack.exportState();
    expect(exported).not.toContain(SNOWFLAKE_KEY);
    for (const out of printed) expect(out).not.toContain(SNOWFLAKE_KEY);
    await stack.run(["state", "unprotect", "--all", "--yes", "--stack", stack.stackName]);
    const destroy = record(await stack.destroy());
    expect(destroy.stdout).toMatch(/-\s+cdc:destinations:Snowflake\s+wh\s+deleted/);
    expect((await web.listAll("/destinations", {}, anyItem)).map((d) => String(d.id))).not.toContain(id);
  });
});
