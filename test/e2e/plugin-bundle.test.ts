import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { emptyproto, grpc, provproto, provrpc, structproto } from "../../plugin/proto.js";
import { configureRequest, plain, secret, urnOf } from "../contract/plugin/harness.js";
import { runOk } from "../support/process.js";
import { pgSourceConfig } from "../support/fixtures.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
const repo = join(__dirname, "..", "..");

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) out.push(relative(dir, join(entry.parentPath, entry.name)));
  return out.sort();
}

/** The heap options every launcher passes (bin/plugin-node-options; docs/benchmarks.md measured these). */
const HEAP_OPTIONS = ["--max-semi-space-size=1", "--heap-growing-percent=30"];

/** What `launcher args...` runs, with a `node` on PATH that prints its arguments one a line. */
async function argsOf(dir: string, launcher: string, env: Record<string, string>, ...args: string[]): Promise<string[]> {
  const fakeBin = join(dir, "fake-bin");
  await mkdir(fakeBin, { recursive: true });
  await writeFile(join(fakeBin, "node"), '#!/bin/sh\necho "MALLOC_ARENA_MAX=${MALLOC_ARENA_MAX-unset}"\nfor a in "$@"; do echo "$a"; done\n');
  await chmod(join(fakeBin, "node"), 0o755);
  const { stdout } = await runOk(launcher, args, { env: { ...env, PATH: `${fakeBin}:/usr/bin:/bin` } });
  return stdout.trim().split("\n");
}

// What the release's plugin tarballs and package-plugin.sh tar (scripts/bundle-plugin.mjs --stage,
// through scripts/release/plugin-contents.ts): the plugin as one bundled file with its launcher, started from a directory with no node_modules anywhere above it, serving a
// Source from Check through Create and Delete against the emulator. Behaviour only: no timing.
describe("the packaged plugin is one bundled file that starts and serves", { timeout: 180_000 }, () => {
  let stage: string;
  let emulator: RunningEmulator;
  let plugin: ChildProcess | undefined;
  let client: any;

  beforeAll(async () => {
    stage = await mkdtemp(join(tmpdir(), "pulumi-cdc-plugin-stage-"));
    await runOk(process.execPath, [join(repo, "scripts", "bundle-plugin.mjs"), "--stage", stage], { cwd: repo });
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    client?.close();
    if (plugin?.pid !== undefined && plugin.exitCode === null) plugin.kill("SIGKILL");
    await emulator?.stop();
    if (stage) await rm(stage, { recursive: true, force: true });
  });

  it("holds the launcher, the bundle, the schema, package.json and LICENSE, and nothing else", async () => {
    expect(await files(stage)).toEqual(["LICENSE", "dist/plugin/pulumi-resource-cdc.js", "generated/schema.json", "package.json", "pulumi-resource-cdc"]);
    const pkg = JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as { version: string; license: string; engines: unknown };
    expect(JSON.parse(await readFile(join(stage, "package.json"), "utf8"))).toMatchObject({ name: "pulumi-resource-cdc", version: pkg.version, license: pkg.license, engines: pkg.engines });
  });

  it("its launcher and bin/pulumi-resource-cdc run the bundle under the same heap options and malloc arenas (a user's setting kept)", async () => {
    const scratch = await mkdtemp(join(tmpdir(), "pulumi-cdc-launcher-args-"));
    try {
      expect(await argsOf(scratch, join(stage, "pulumi-resource-cdc"), {}, "a b")).toEqual(["MALLOC_ARENA_MAX=2", ...HEAP_OPTIONS, join(stage, "dist", "plugin", "pulumi-resource-cdc.js"), "a b"]);
      expect(await argsOf(scratch, join(repo, "bin", "pulumi-resource-cdc"), {}, "a b")).toEqual(["MALLOC_ARENA_MAX=2", ...HEAP_OPTIONS, `${join(repo, "bin")}/../dist/plugin/pulumi-resource-cdc.js`, "a b"]);
      expect((await argsOf(scratch, join(stage, "pulumi-resource-cdc"), { MALLOC_ARENA_MAX: "8" }))[0]).toBe("MALLOC_ARENA_MAX=8");
      expect((await argsOf(scratch, join(repo, "bin", "pulumi-resource-cdc"), { MALLOC_ARENA_MAX: "8" }))[0]).toBe("MALLOC_ARENA_MAX=8");
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it("--launcher windows stages the .cmd launcher instead, with the same options, and no sh one", async () => {
    const win = await mkdtemp(join(tmpdir(), "pulumi-cdc-plugin-stage-win-"));
    try {
      await runOk(process.execPath, [join(repo, "scripts", "bundle-plugin.mjs"), "--stage", win, "--launcher", "windows"], { cwd: repo });
      expect(await files(win)).toEqual(["LICENSE", "dist/plugin/pulumi-resource-cdc.js", "generated/schema.json", "package.json", "pulumi-resource-cdc.cmd"]);
      const cmd = await readFile(join(win, "pulumi-resource-cdc.cmd"), "utf8");
      expect(cmd.split("\r\n")).toContain(`node ${HEAP_OPTIONS.join(" ")} "%~dp0dist\\plugin\\pulumi-resource-cdc.js" %*`);
      expect(cmd.replace(/\r\n/g, "")).not.toContain("\n");
    } finally {
      await rm(win, { recursive: true, force: true });
    }
  });

  it("starts, prints its port, and answers GetPluginInfo, GetSchema, Configure, Check, Create and Delete", async () => {
    // Not the repository's node_modules: only what the stage holds (NODE_PATH cleared, cwd the stage).
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NODE_PATH" && k !== "NODE_OPTIONS"));
    plugin = spawn(join(stage, "pulumi-resource-cdc"), [], { cwd: stage, env, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    plugin.stderr!.on("data", (d) => (stderr += d));
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`no port within 60 s; stderr: ${stderr}`)), 60_000);
      plugin!.stdout!.on("data", (d) => {
        out += d;
        const line = out.split("\n");
        if (line.length > 1) {
          clearTimeout(timer);
          resolve(Number(line[0]));
        }
      });
      plugin!.on("exit", (code) => reject(new Error(`the plugin exited with ${code}: ${stderr}`)));
    });
    expect(port).toBeGreaterThan(0);
    client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const call = (method: string, req: any) => new Promise<any>((resolve, reject) => client[method](req, (err: Error | null, resp: any) => (err ? reject(err) : resolve(resp))));

    const version = (JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as { version: string }).version;
    expect((await call("getPluginInfo", new emptyproto.Empty())).getVersion()).toBe(version);
    expect(JSON.parse((await call("getSchema", new provproto.GetSchemaRequest())).getSchema())).toMatchObject({ name: "cdc" });
    await call("configure", configureRequest(emulator));

    const urn = urnOf("cdc:index:Source", "orders");
    const check = new provproto.CheckRequest();
    check.setUrn(urn);
    check.setOlds(structproto.Struct.fromJavaScript({}));
    check.setNews(structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify({ connector: "postgresql", config: { ...pgSourceConfig, "database.password": secret(pgSourceConfig["database.password"]) } }))));
    const checked = await call("check", check);
    expect(checked.getFailuresList()).toEqual([]);
    const inputs = plain(checked.getInputs());
    expect(inputs.config["database.password"]).toEqual(secret(pgSourceConfig["database.password"]));

    const create = new provproto.CreateRequest();
    create.setUrn(urn);
    create.setProperties(checked.getInputs());
    const created = await call("create", create);
    expect(created.getId()).toMatch(/^[0-9a-f]+$/);
    expect(plain(created.getProperties())).toMatchObject({ connector: "postgresql", status: "Active" });

    const del = new provproto.DeleteRequest();
    del.setUrn(urn);
    del.setId(created.getId());
    del.setProperties(created.getProperties());
    await call("delete", del);
    expect(emulator.stats().total).toBeGreaterThan(0);
  });
});
