import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { runOk, toolchainTool } from "../support/process.js";
import { ENGINE_FLAGS, ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";

// Issue 41: `pulumi convert --from terraform` of a program on the vendor's Terraform provider, as a
// user runs it: the converter plugin pulumi-converter-terraform (tools/, on the Terraform bridge's
// converter) on PATH, pulumi-resource-cdc installed from its tarball into the plugin cache, whose
// GetMapping("terraform", "streamkap") names each streamkap_* type's token and each attribute's
// property. The program it writes uses the typed resources and previews against the emulator.
// The converter is opt-in (its first build takes minutes: cdc_ensure_terraform_converter).

const REPO_ROOT = resolve(__dirname, "..", "..");
const CONVERTER = (() => {
  try {
    return execFileSync("sh", ["-c", "command -v pulumi-converter-terraform"], { encoding: "utf8" }).trim();
  } catch {
    return "";
  }
})();

if (!CONVERTER) console.log("pulumi convert --from terraform: skipped (no pulumi-converter-terraform on PATH; build it with `source scripts/toolchain.sh; cdc_ensure_terraform_converter`)");

const HCL = `terraform {
  required_providers {
    streamkap = {
      source = "streamkap-com/streamkap"
    }
  }
}

variable "db_password" {
  type      = string
  sensitive = true
}

resource "streamkap_tag" "team" {
  name = "tfconvert-team"
  type = ["sources", "destinations", "pipelines"]
}

resource "streamkap_source_postgresql" "orders" {
  name                = "tfconvert-orders"
  database_hostname   = "db.internal"
  database_port       = 5432
  database_user       = "cdc"
  database_password   = var.db_password
  database_dbname     = "shop"
  schema_include_list = "public"
  table_include_list  = "public.orders"
  tags                = [streamkap_tag.team.id]
}

resource "streamkap_destination_postgresql" "replica" {
  name                = "tfconvert-replica"
  database_hostname   = "replica.internal"
  database_port       = 5432
  database_database   = "replica"
  connection_username = "loader"
  connection_password = var.db_password
  table_name_prefix   = "public"
}

resource "streamkap_pipeline" "orders" {
  name = "tfconvert-orders"
  source = {
    id     = streamkap_source_postgresql.orders.id
    name   = streamkap_source_postgresql.orders.name
    topics = ["public.orders"]
  }
  destination = {
    id   = streamkap_destination_postgresql.replica.id
    name = streamkap_destination_postgresql.replica.name
  }
  snapshot_new_tables = true
  tags                = [streamkap_tag.team.id]
}
`;

describe.skipIf(!CONVERTER)("pulumi convert --from terraform on pulumi-resource-cdc's mapping", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let work: string;
  let env: NodeJS.ProcessEnv;
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    work = await mkdtemp(join(tmpdir(), "pulumi-cdc-tf-convert-"));
    await mkdir(join(work, "hcl"));
    await writeFile(join(work, "hcl", "main.tf"), HCL);
    // The Node.js language host writes TypeScript with tools/pulumi-cdc-codegen.
    const codegen = await toolchainTool("PULUMI_CDC_CODEGEN", "cdc_ensure_codegen");
    env = { ...process.env, PULUMI_CDC_CODEGEN: codegen, PULUMI_HOME: join(work, "home"), PULUMI_SKIP_UPDATE_CHECK: "true", PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true", NO_COLOR: "1" };
    // The plugin as a user installs it (the mapper asks only the plugins of the plugin cache).
    const { stdout } = await runOk("bash", [join(REPO_ROOT, "scripts", "package-plugin.sh")], { cwd: REPO_ROOT });
    const tarball = join(REPO_ROOT, stdout.trim().split("\n").pop()!);
    const version = (JSON.parse(await readFile(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
    await runOk("pulumi", ["plugin", "install", "resource", "cdc", version, "--file", tarball], { env });
  });

  afterAll(async () => {
    for (const stack of stacks) await stack.cleanup();
    await emulator?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** A project written by the conversion, type-checked and previewed against the emulator: its creates planned. */
  async function previewsCreates(out: string, stackName: string) {
    const stack = await TestStack.create(out, { stackName, typeCheck: true, env: { PATH: `${join(REPO_ROOT, "bin")}:${process.env.PATH}` } });
    stacks.push(stack);
    await stack.useApi(emulator, {}, { dbPassword: "tf-convert-password" });
    const preview = await stack.preview();
    expect(preview.stdout).toMatch(/\+ 5 to create/);
  }

  const convert = (language: string, out: string) =>
    runOk("pulumi", ["convert", "--from", "terraform", "--language", language, "--out", out, "--generate-only", ...ENGINE_FLAGS], { cwd: join(work, "hcl"), env });

  it("yaml: writes the typed resources with the plugin's property names, and the program previews its creates", async () => {
    const out = join(work, "yaml");
    const converted = await convert("yaml", out);
    expect(converted.output).toContain(`using pulumi-converter-terraform from $PATH at ${CONVERTER}`);
    const files = (await readdir(out)).filter((f) => f.endsWith(".yaml") && !f.startsWith("Pulumi."));
    expect(files).toEqual(["Main.yaml"]);
    const program = await readFile(join(out, "Main.yaml"), "utf8");
    expect(program).toMatch(/type: cdc:sources:Postgresql\n\s+properties:\n\s+name: tfconvert-orders\n\s+databaseHostname: db.internal\n\s+databasePort: 5432/);
    expect(program).toContain("type: cdc:destinations:Postgresql");
    expect(program).toMatch(/connectionPassword: \$\{dbPassword\}/);
    expect(program).toMatch(/type: cdc:(index:)?Tag/);
    expect(program).toMatch(/type: cdc:(index:)?Pipeline/);
    expect(program).toMatch(/snapshotNewTables: true/);
    expect(program).toMatch(/- \$\{team\.id\}/);
    expect(program).not.toMatch(/streamkap|database_hostname|adoptId/);
    // The one hand edit (docs/migrating-from-terraform.md): the vendor's source.topics is the Pipeline's sourceTopics.
    const topics = "        topics:\n          - public.orders\n      destination:";
    expect(program).toContain(topics);
    await writeFile(join(out, "Main.yaml"), program.replace(topics, "      sourceTopics:\n        - public.orders\n      destination:"));
    await previewsCreates(out, "tfconvert-yaml");
  });

  it("typescript: writes a project on pulumi-cdc-sdk with the typed classes, which compiles and previews its creates", async () => {
    const out = join(work, "typescript");
    await convert("typescript", out);
    const program = await readFile(join(out, "index.ts"), "utf8");
    expect(program).toContain('import * as cdc from "pulumi-cdc-sdk";');
    expect(program).toContain('new cdc.sources.Postgresql("ordersPostgresql", {');
    expect(program).toContain('new cdc.destinations.Postgresql("replica", {');
    expect(program).toContain('new cdc.Pipeline("ordersPipeline", {');
    expect(program).toContain('new cdc.Tag("team", {');
    expect(program).toMatch(/databaseHostname: "db.internal",\n\s+databasePort: 5432,/);
    expect(program).toContain('const dbPassword = config.require("dbPassword");');
    expect(program).toContain("tags: [team.id],");
    expect(program).not.toMatch(/streamkap|database_hostname|adoptId/);
    expect(JSON.parse(await readFile(join(out, "package.json"), "utf8"))).toMatchObject({ dependencies: { "pulumi-cdc-sdk": expect.any(String) } });
    const topics = '        topics: ["public.orders"],\n    },';
    expect(program).toContain(topics);
    await writeFile(join(out, "index.ts"), program.replace(topics, '    },\n    sourceTopics: ["public.orders"],'));
    // What `npm install` of its dependencies would link, offline: the repository's @pulumi and the generated SDK.
    await mkdir(join(out, "node_modules"));
    await symlink(join(REPO_ROOT, "node_modules", "@pulumi"), join(out, "node_modules", "@pulumi"), "dir");
    await symlink(join(REPO_ROOT, "node_modules", "@types"), join(out, "node_modules", "@types"), "dir");
    await symlink(join(REPO_ROOT, "generated", "sdks", "nodejs"), join(out, "node_modules", "pulumi-cdc-sdk"), "dir");
    await previewsCreates(out, "tfconvert-ts");
  });
});
