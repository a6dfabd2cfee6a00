import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CDC_CLI, run } from "../../support/process.js";

// What the built `pulumi-cdc drift` loads, by stack: the modules of the kinds the stack holds and
// nothing else. An empty stack loads neither the API client (undici, the client's index and its
// schemas) nor any kind's check; a stack of sources and destinations loads their checks and the
// client, and none of the other kinds' modules, nor `import`'s or `recover`'s. A behaviour test:
// it reads require.cache at exit, it times nothing.
//
// The Pulumi CLI is a script answering `stack export` and `config` from files; the API is an
// address nothing listens on, with one attempt per call, so a stack with resources ends in a
// connection error once its checks have started (exit 1), without a server.

const ROOT = resolve(__dirname, "..", "..", "..");

interface Loaded {
  code: number;
  stderr: string;
  stdout: string;
  modules: string[];
}

const relative = (modules: string[]) =>
  modules.map((m) => (m.startsWith(ROOT) ? m.slice(ROOT.length + 1) : m)).map((m) => m.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, "node_modules/$1"));

describe("what pulumi-cdc drift loads", () => {
  let dir: string;

  beforeAll(() => {
    if (!existsSync(CDC_CLI)) throw new Error(`${CDC_CLI} is missing: run \`npm run build\` first`);
    dir = mkdtempSync(join(tmpdir(), "pulumi-cdc-drift-load-"));
    writeFileSync(
      join(dir, "pulumi"),
      [
        "#!/bin/sh",
        'if [ "$1" = stack ] && [ "$2" = export ]; then cat "$FAKE_CHECKPOINT"; exit 0; fi',
        // As Pulumi lists a stack's config: the secret's value only with --show-secrets.
        'if [ "$1" = config ] && [ "$2" = --json ] && [ "$3" = --show-secrets ]; then sed \'s/"secret":true}/"value":"load-test-secret","secret":true}/\' "$FAKE_CONFIG"; exit 0; fi',
        'if [ "$1" = config ] && [ "$2" = --json ]; then cat "$FAKE_CONFIG"; exit 0; fi',
        'echo "error: unexpected command: $*" >&2; exit 1',
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    writeFileSync(
      join(dir, "config.json"),
      JSON.stringify({
        // Nothing listens on port 1 of the loopback; one attempt per call, so the refusal ends the run at once.
        "cdc:apiUrl": { value: "http://127.0.0.1:1", secret: false },
        "cdc:clientId": { value: "load-test", secret: false },
        "cdc:clientSecret": { secret: true },
        "cdc:retryAttempts": { value: "1", secret: false },
      }),
    );
    writeFileSync(join(dir, "preload.js"), `process.on("exit", () => require("node:fs").writeFileSync(process.env.LOADED_OUT, JSON.stringify(Object.keys(require.cache))));\n`);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function driftOn(name: string, resources: unknown[]): Promise<Loaded> {
    const checkpoint = join(dir, `${name}.json`);
    writeFileSync(checkpoint, JSON.stringify({ version: 3, deployment: { resources } }));
    const out = join(dir, `${name}.loaded.json`);
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CDC_"))),
      PATH: `${dir}:${process.env.PATH}`,
      FAKE_CHECKPOINT: checkpoint,
      FAKE_CONFIG: join(dir, "config.json"),
      LOADED_OUT: out,
    };
    const { code, stdout, stderr } = await run(process.execPath, ["--require", join(dir, "preload.js"), CDC_CLI, "drift", "--stack", "dev", "--json"], { cwd: dir, env, timeout: 60_000 });
    try {
      const modules = relative(JSON.parse(require("node:fs").readFileSync(out, "utf8")) as string[]);
      return { code, stdout, stderr, modules };
    } catch (e) {
      throw new Error(`no module list (${String(e)}); stderr: ${stderr}`);
    }
  }

  const resource = (kind: string, id: string, outputs: Record<string, unknown>) => ({
    urn: `urn:pulumi:dev::p::pulumi-nodejs:dynamic/cdc:${kind}::${id}`,
    type: `pulumi-nodejs:dynamic/cdc:${kind}`,
    id,
    outputs,
  });
  const source = resource("Source", "s1", { name: "orders", connector: "postgresql", config: { "database.hostname": "db" }, desiredState: "active" });
  const destination = resource("Destination", "d1", { name: "warehouse", connector: "snowflake", config: { "snowflake.schema.name": "RAW" }, desiredState: "active" });

  /** Modules no drift check loads: the other commands', the emulator, the Pulumi SDK. */
  const NEVER = ["dist/cli/import.js", "dist/cli/import/model.js", "dist/cli/recover.js", "dist/emulator/", "node_modules/@pulumi/pulumi", "node_modules/fastify"];
  const OTHER_KINDS = [
    "dist/provider/resources/agent.js",
    "dist/provider/resources/pipeline.js",
    "dist/provider/resources/transform.js",
    "dist/provider/resources/kafkaUser.js",
    "dist/provider/resources/topic.js",
    "dist/provider/resources/topicDestination.js",
    "dist/provider/resources/destinationSmtChain.js",
    "dist/provider/resources/httpConnection.js",
    "dist/provider/resources/llmConnection.js",
    "dist/provider/resources/clientCredential.js",
  ];
  const loadedAny = (modules: string[], prefixes: string[]) => modules.filter((m) => prefixes.some((p) => m.startsWith(p)));

  it("an empty stack: neither the API client nor any kind's check", async () => {
    const r = await driftOn("empty", []);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ stack: "dev", clean: true, resources: [] });
    expect(r.modules).toContain("dist/cli/drift.js");
    expect(loadedAny(r.modules, ["node_modules/undici", "dist/provider/client/index.js", "dist/provider/client/client.js", "dist/provider/client/schemas.js", "dist/cli/check.js", "dist/provider/drift.js", "dist/provider/resources/", ...NEVER])).toEqual([]);
  });

  it("sources and destinations: the client and their checks, none of the other kinds' modules", async () => {
    const r = await driftOn("connectors", [source, destination]);
    // It got as far as the API: every module its checks need was loaded by then.
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^pulumi-cdc drift: .*(ECONNREFUSED|connect)/);
    expect(r.stderr).not.toContain("load-test-secret");
    expect(r.modules).toEqual(expect.arrayContaining(["node_modules/undici", "dist/provider/client/index.js", "dist/cli/check.js", "dist/provider/drift.js", "dist/provider/live-cache.js"]));
    expect(loadedAny(r.modules, [...OTHER_KINDS, ...NEVER])).toEqual([]);
  });

  it("a tag: the tag's check, not the connectors' nor the other kinds'", async () => {
    const tag = resource("Tag", "t1", { name: "pii", description: "d", type: ["sources"] });
    const r = await driftOn("tag", [tag]);
    expect(r.code).toBe(1);
    expect(r.modules).toEqual(expect.arrayContaining(["dist/provider/client/index.js", "dist/provider/resources/tag.js"]));
    expect(loadedAny(r.modules, ["dist/provider/live-cache.js", ...OTHER_KINDS, ...NEVER])).toEqual([]);
  });
});
