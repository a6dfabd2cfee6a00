import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { agentSchema, clientCredentialSchema } from "../../provider/client/index.js";
import { CDC_CLI, run, runCdc } from "../support/process.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { pathWithPythonHost, pulumiRequirement, pythonSdkCopy, pythonToolchain } from "../support/python.js";
import { SEED_SECRETS, seedTenant, type SeededTenant } from "../support/tenant-seed.js";
import { tagItems, ConsoleClient, apiWrites, webClient } from "../support/web.js";
import { yamlProgram } from "../support/yaml.js";

// Issue 21, point 4: the round trip. A tenant seeded through the API as people build one in the
// web console (27 objects of every kind, a destination's SMT chain among them), `pulumi-cdc import` writes the program, it type-checks,
// the printed secrets are set, and `pulumi up` adopts every object with NO write to any of them;
// then `pulumi preview --expect-no-changes` and `pulumi-cdc drift` are clean, and `pulumi destroy`
// removes exactly those objects. The same round trip for the program `--lang yaml` writes (on the
// provider plugin) and `--lang python` (on the Python SDK generated from the plugin's schema, in a
// virtual environment made from the requirements.txt it writes), each on a tenant of its own seeded
// into the same emulator.

const REPO_ROOT = resolve(__dirname, "..", "..");
const TSC = join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");


/** What the tenant holds now, by kind: ids (system tags and soft-deleted agents aside). */
async function census(web: ConsoleClient) {
  const ids = <T>(list: T[], id: (t: T) => string | null | undefined) => list.map(id).filter((x): x is string => typeof x === "string").sort();
  const envelope = z.object({ result: z.array(z.object({ id: z.string() }).loose()) }).loose();
  const list = async (path: string) => ids((await web.get(path, { query: { page_size: 100 }, schema: envelope })).result, (r) => r.id);
  const tags = tagItems(await web.get("/tags", { query: { page_size: 100 } })) as Array<{ id: string; system?: boolean }>;
  const http = z.object({ result: z.array(z.object({ connection_id: z.string() }).loose()) }).loose();
  const agents = z.object({ result: z.array(agentSchema) }).loose();
  return {
    tags: ids(tags.filter((t) => !t.system), (t) => t.id),
    sources: await list("/sources"),
    destinations: await list("/destinations"),
    transforms: await list("/transforms"),
    pipelines: await list("/pipelines"),
    httpConnections: ids((await web.get("/agents/connections/http", { schema: http })).result, (c) => c.connection_id),
    llmConnections: ids((await web.get("/agents/connections/llm", { schema: http })).result, (c) => c.connection_id),
    agents: ids((await web.get("/agents", { schema: agents })).result, (a) => a.job_id),
    credentials: ids(await web.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) }), (c) => c.client_id),
  };
}

describe("pulumi-cdc import: a whole tenant adopted with zero writes, under the real engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let seeded: SeededTenant;
  let work: string;
  let program: string;
  let stack: TestStack | undefined;

  beforeAll(async () => {
    if (!existsSync(CDC_CLI)) throw new Error(`${CDC_CLI} is missing: run \`npm run build\` first`);
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    seeded = await seedTenant(web, "acme");
    work = await mkdtemp(join(tmpdir(), "pulumi-cdc-import-"));
    program = join(work, "acme-tenant");
  });

  afterAll(async () => {
    if (stack) {
      await stack.cleanup();
    }
    await web?.close();
    await emulator?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("imports, type-checks, adopts every object with no write, previews and checks clean, and destroys exactly those objects", async () => {
    expect(seeded.count).toBeGreaterThanOrEqual(25);
    const api = { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret };
    const env = { ...process.env, ...api };

    // 1. The import, as a user runs it. Reading the tenant writes nothing.
    emulator.resetStats();
    const imported = await runCdc(["import", "--out", program, "--raw-config", "acme-legacy-*", "--pulumi-import-file", join(program, "import.json")], { cwd: work, env });
    expect(imported.code, imported.stderr).toBe(0);
    expect(apiWrites(emulator)).toEqual({});
    expect(imported.stdout).toContain(`Wrote a TypeScript program for 4 tags, 2 LLM connections, 2 HTTP connections, 2 agents, 5 sources, 3 destinations, 1 SMT chain, 3 transforms, 3 pipelines and 2 topics`);
    const index = await readFile(join(program, "index.ts"), "utf8");
    // Typed helpers, the raw config of the one asked for, references, adoptId on each, no secret.
    expect(index).toContain("...postgresqlTables({");
    expect(index).toContain("...snowflakeDestination({");
    expect(index).toMatch(/\/\/ --raw-config: its config is written in the platform's keys[^\n]*\n\s+connector: "sqlserveraws",/);
    expect(index).toContain("source: acmeOrdersSource,");
    expect(index).toContain("{ transform: acmeCleanOrdersTransform, topics: [");
    expect(index).toContain("llmConnection: acmeGptLlmConnection,");
    // A topic is named by its topicId, a chain by its destination: neither takes an adoptId.
    expect((index.match(/adoptId: /g) ?? []).length).toBe(seeded.count - seeded.ids.topics.length - seeded.ids.smtChains.length);
    expect(index).toContain('maskSalt: "********",');
    expect(index).toContain(seeded.credential);
    for (const value of Object.values(SEED_SECRETS)) expect(index).not.toContain(value);
    const importFile = JSON.parse(await readFile(join(program, "import.json"), "utf8")) as { resources: unknown[] };
    expect(importFile.resources).toHaveLength(seeded.count);

    // 2. The program type-checks against the package (linked as `npm install` of it would).
    await symlink(join(REPO_ROOT, "node_modules"), join(program, "node_modules"), "dir");
    const tsc = await run(process.execPath, [TSC, "-p", join(program, "tsconfig.json")], { cwd: program });
    expect(tsc.code, `${tsc.stdout}${tsc.stderr}`).toBe(0);

    // 3. The printed secrets, set as a user would (a value for each name; in one `config set-all`,
    // which stores them as the printed `config set --secret` lines do one by one).
    const secretNames = [...imported.stdout.matchAll(/^\s*pulumi config set --secret (\S+)/gm)].map((m) => m[1]!);
    expect(secretNames).toHaveLength(13);
    const readme = await readFile(join(program, "README.md"), "utf8");
    for (const name of secretNames) expect(readme).toContain(`pulumi config set --secret ${name}`);
    stack = await TestStack.create(program, { stackName: `adopt-${process.pid}` });
    await stack.useApi(emulator, {}, Object.fromEntries(secretNames.map((name) => [name, `value-of-${name}`])));

    // 4. The first preview, on the fresh stack, plans every adoption (pipelines reference
    // sources and destinations not yet in the stack) and writes nothing.
    const before = await census(web);
    emulator.resetStats();
    const preview = await stack.preview();
    expect(preview.stdout).toMatch(new RegExp(`\\+ ${seeded.count + 1} to create`));
    expect(apiWrites(emulator)).toEqual({});

    // 5. A plain pulumi up adopts all 27 objects (and makes the stack): the API receives no write at all.
    const up = await stack.up();
    expect(up.stdout).toMatch(new RegExp(`\\+ ${seeded.count + 1} created`));
    expect(apiWrites(emulator)).toEqual({});
    expect(await census(web)).toEqual(before);

    // 6. Clean: no changes in a preview, no drift.
    await stack.preview(["--expect-no-changes"]);
    const drift = await stack.drift([], { env: api });
    expect(drift.code, `${drift.stdout}${drift.stderr}`).toBe(0);
    expect(drift.stdout).toMatch(/No drift: \d+ resources of stack/);
    expect(apiWrites(emulator)).toEqual({});

    // 7. destroy removes exactly those objects (the chain by emptying it, before its destination goes): the credentials and the platform's tags stay.
    const destroyed = await stack.destroy();
    expect(destroyed.stdout).toMatch(new RegExp(`- ${seeded.count + 1} deleted`));
    const after = await census(web);
    expect(after).toEqual({
      tags: [],
      sources: [],
      destinations: [],
      transforms: [],
      pipelines: [],
      httpConnections: [],
      llmConnections: [],
      agents: [],
      credentials: before.credentials,
    });
    const deletes = Object.entries(apiWrites(emulator)).filter(([route]) => route.startsWith("DELETE "));
    expect(Object.fromEntries(deletes)).toEqual({
      "DELETE /tags/:tag_id": 4,
      "DELETE /sources/:source_id": 5,
      "DELETE /destinations/:destination_id": 3,
      "DELETE /transforms": 3,
      "DELETE /pipelines/:pipeline_id": 3,
      "DELETE /agents/connections/http/:connection_id": 2,
      "DELETE /agents/connections/llm/:connection_id": 2,
      "DELETE /agents/:job_id": 2,
    });
    expect(Object.fromEntries(Object.entries(apiWrites(emulator)).filter(([route]) => !route.startsWith("DELETE ")))).toEqual({ "PUT /destinations/:destination_id/smt-chain": 1 });
  });

  it("--lang yaml: the YAML program on the provider plugin adopts a tenant with no write, previews clean, and destroys it", async () => {
    const beta = await seedTenant(web, "beta");
    const env = { ...process.env, CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret };
    const generated = join(work, "beta-yaml");
    // --name: only this tenant's objects (the emulator also holds the credentials and the platform's tags).
    const imported = await runCdc(["import", "--lang", "yaml", "--out", generated, "--name", "beta-*", "--name", "public.orders", "--name", "clean.orders"], { cwd: work, env });
    expect(imported.code, imported.stderr).toBe(0);
    // The plugin of this checkout (plugins.providers), as a user's installed one would serve the program.
    const copy = await yamlProgram(generated);
    const yamlStack = await TestStack.create(copy.dir, { stackName: `adopt-yaml-${process.pid}` });
    try {
      const secretNames = [...imported.stdout.matchAll(/^\s*pulumi config set --secret (\S+)/gm)].map((m) => m[1]!);
      expect(secretNames).toHaveLength(13);
      await yamlStack.useApi(emulator, {}, Object.fromEntries(secretNames.map((name) => [name, `value-of-${name}`])));
      emulator.resetStats();
      const preview = await yamlStack.preview();
      expect(preview.stdout).toMatch(new RegExp(`\\+ ${beta.count + 1} to create`));
      expect(apiWrites(emulator)).toEqual({});
      const up = await yamlStack.up();
      expect(up.stdout).toMatch(new RegExp(`\\+ ${beta.count + 1} created`));
      expect(apiWrites(emulator)).toEqual({});
      await yamlStack.preview(["--expect-no-changes"]);
      const destroyed = await yamlStack.destroy();
      expect(destroyed.stdout).toMatch(new RegExp(`- ${beta.count + 1} deleted`));
      const left = await census(web);
      expect([...left.tags, ...left.sources, ...left.destinations, ...left.transforms, ...left.pipelines, ...left.httpConnections, ...left.llmConnections, ...left.agents]).toEqual([]);
    } finally {
      await yamlStack.cleanup();
      await copy.dispose();
    }
  });

  it("--lang python: the Python program on the generated SDK installs from its requirements.txt, adopts a tenant with no write, previews clean, and destroys it", async (ctx) => {
    const py = await pythonToolchain();
    if (!py) return ctx.skip();
    const path = await pathWithPythonHost();
    const gamma = await seedTenant(web, "gamma");
    const env = { ...process.env, CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret };
    const generated = join(work, "gamma-python");
    emulator.resetStats();
    const imported = await runCdc(["import", "--lang", "python", "--out", generated, "--name", "gamma-*", "--name", "public.orders", "--name", "clean.orders"], { cwd: work, env });
    expect(imported.code, imported.stderr).toBe(0);
    expect(apiWrites(emulator)).toEqual({});
    expect(imported.stdout).toContain(`Wrote a Python program for 4 tags, 2 LLM connections, 2 HTTP connections, 2 agents, 5 sources, 3 destinations, 1 SMT chain, 3 transforms, 3 pipelines and 2 topics`);
    const main = await readFile(join(generated, "__main__.py"), "utf8");
    expect(main).toContain("import pulumi_cdc as cdc");
    for (const value of Object.values(SEED_SECRETS)) expect(main).not.toContain(value);
    expect(await readFile(join(generated, "Pulumi.yaml"), "utf8")).toMatch(/^runtime:\n {2}name: python\n {2}options:\n(?: {4}#.*\n)* {4}virtualenv: venv$/m);
    // requirements.txt: Pulumi's SDK of the engine's release, and this checkout's generated SDK by
    // a path relative to the program. The copy's requirement points at a copy of the SDK instead
    // (pip builds a local project in place).
    const requirements = (await readFile(join(generated, "requirements.txt"), "utf8")).split("\n").filter((l) => l.trim() !== "" && !l.startsWith("#"));
    expect(requirements).toHaveLength(2);
    expect(requirements[0]).toBe(pulumiRequirement(py.pulumiVersion));
    expect(resolve(generated, requirements[1]!)).toBe(join(REPO_ROOT, "generated", "sdks", "python"));
    const copy = await yamlProgram(generated);
    const sdk = await pythonSdkCopy(join(work, "gamma-sdk-python"));
    await writeFile(join(copy.dir, "requirements.txt"), `${requirements[0]}\n${sdk}\n`);
    const pyStack = await TestStack.create(copy.dir, { stackName: `adopt-python-${process.pid}`, env: { PATH: path, ...py.pipEnv } });
    try {
      const secretNames = [...imported.stdout.matchAll(/^\s*pulumi config set --secret (\S+)/gm)].map((m) => m[1]!);
      expect(secretNames).toHaveLength(13);
      await pyStack.useApi(emulator, {}, Object.fromEntries(secretNames.map((name) => [name, `value-of-${name}`])));
      const before = await census(web);
      emulator.resetStats();
      // The first preview makes the virtual environment from requirements.txt (pip, no index) and plans every adoption.
      const preview = await pyStack.preview();
      expect(existsSync(join(copy.dir, "venv", "bin", "python"))).toBe(true);
      expect(preview.stdout).toMatch(new RegExp(`\\+ ${gamma.count + 1} to create`));
      expect(apiWrites(emulator)).toEqual({});
      const up = await pyStack.up();
      expect(up.stdout).toMatch(new RegExp(`\\+ ${gamma.count + 1} created`));
      expect(apiWrites(emulator)).toEqual({});
      expect(await census(web)).toEqual(before);
      await pyStack.preview(["--expect-no-changes"]);
      expect(apiWrites(emulator)).toEqual({});
      const destroyed = await pyStack.destroy();
      expect(destroyed.stdout).toMatch(new RegExp(`- ${gamma.count + 1} deleted`));
      const left = await census(web);
      expect([...left.tags, ...left.sources, ...left.destinations, ...left.transforms, ...left.pipelines, ...left.httpConnections, ...left.llmConnections, ...left.agents]).toEqual([]);
    } finally {
      await pyStack.cleanup();
      await copy.dispose();
    }
  });
});
