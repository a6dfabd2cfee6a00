import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { emptyproto, grpc, provproto, provrpc, structproto } from "../../plugin/proto.js";
import { configureRequest, plain, secret, urnOf } from "../contract/plugin/harness.js";
import { pgSourceConfig } from "../contract/provider/harness.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
const run = promisify(execFile);
const repo = join(__dirname, "..", "..");

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) out.push(relative(dir, join(entry.parentPath, entry.name)));
  return out.sort();
}

// What package-plugin.sh tars (scripts/bundle-plugin.mjs --stage): the plugin as one bundled file
// with its launcher, started from a directory with no node_modules anywhere above it, serving a
// Source from Check through Create and Delete against the emulator. Behaviour only: no timing.
describe("the packaged plugin is one bundled file that starts and serves", { timeout: 180_000 }, () => {
  let stage: string;
  let emulator: RunningEmulator;
  let plugin: ChildProcess | undefined;
  let client: any;

  beforeAll(async () => {
    stage = await mkdtemp(join(tmpdir(), "pulumi-cdc-plugin-stage-"));
    await run(process.execPath, [join(repo, "scripts", "bundle-plugin.mjs"), "--stage", stage], { cwd: repo });
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    client?.close();
    if (plugin?.pid !== undefined && plugin.exitCode === null) plugin.kill("SIGKILL");
    await emulator?.stop();
    if (stage) await rm(stage, { recursive: true, force: true });
  });

  it("holds the launcher, the bundle, the schema and package.json, and nothing else", async () => {
    expect(await files(stage)).toEqual(["dist/plugin/pulumi-resource-cdc.js", "package.json", "plugin/schema.json", "pulumi-resource-cdc"]);
    const launcher = await readFile(join(stage, "pulumi-resource-cdc"), "utf8");
    expect(launcher).toMatch(/exec node .*"\$here\/dist\/plugin\/pulumi-resource-cdc\.js" "\$@"/);
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
