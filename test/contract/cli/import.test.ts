import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseImportArgs, type ImportOptions } from "../../../cli/import/args.js";
import { runImport, type ImportDeps } from "../../../cli/import.js";
import { Reference } from "../../../cli/import/model.js";
import type { PulumiRunner } from "../../../cli/pulumi.js";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { CdcClient } from "../../../provider/client/index.js";
import { seedTenant, SEED_SECRETS, type SeededTenant } from "../../support/tenant-seed.js";
import { ConsoleClient, webClient } from "../../support/web.js";
import { parsePython } from "../../support/python.js";

// `pulumi-cdc import` against the emulator: reading a seeded tenant, the filters, the files it
// writes (the same bytes for the same tenant), credentials from a stack's config, and the bad
// input that writes nothing.

const { load } = createRequire(__filename)("js-yaml") as { load(text: string): unknown };

function options(argv: string[]): ImportOptions {
  const parsed = parseImportArgs(argv);
  if (parsed.command !== "import") throw new Error("not an import");
  return parsed.options;
}

describe("pulumi-cdc import against the emulator", () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let seeded: SeededTenant;
  let work: string;
  let out: string[];
  let err: string[];
  let pulumiCalls: string[][];

  const env = () => ({ CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret, CDC_RETRY_ATTEMPTS: "1" });
  const deps = (extra: Partial<ImportDeps> = {}): ImportDeps => ({
    runPulumi: async (args) => {
      pulumiCalls.push([...args]);
      return { code: 1, stdout: "", stderr: "error: no Pulumi here" };
    },
    env: env(),
    cwd: work,
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    createClient: (settings, tuning) => new CdcClient({ settings, retry: tuning.retry }),
    ...extra,
  });
  const importing = (argv: string[], extra: Partial<ImportDeps> = {}) => {
    out = [];
    err = [];
    pulumiCalls = [];
    return runImport(options(argv), deps(extra));
  };
  const idents = (r: Awaited<ReturnType<typeof runImport>>) => r.model!.resources.map((x) => x.ident);

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    seeded = await seedTenant(web, "acme");
    work = await mkdtemp(join(tmpdir(), "pulumi-cdc-import-contract-"));
  });
  afterAll(async () => {
    await web?.close();
    await emulator?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("reads every kind with no write, and writes the same bytes for the same tenant", async () => {
    emulator.resetStats();
    const first = await importing(["--out", join(work, "a", "tenant"), "--raw-config", "acme-legacy-*"]);
    expect(first.code, err.join("")).toBe(0);
    expect(Object.keys(emulator.stats().requests).filter((r) => /^(POST|PUT|PATCH|DELETE) /.test(r) && !r.startsWith("POST /auth/access-token"))).toEqual([]);
    expect(first.model!.resources).toHaveLength(seeded.count);
    expect(first.model!.secrets).toHaveLength(13);
    expect(first.model!.credentials.map((c) => c.clientId)).toEqual(expect.arrayContaining([seeded.credential, emulator.clientId]));
    const second = await importing(["--out", join(work, "b", "tenant"), "--raw-config", "acme-legacy-*"]);
    expect(second.code).toBe(0);
    for (const name of ["index.ts", "package.json", "tsconfig.json", "Pulumi.yaml", "README.md"]) {
      const a = await readFile(join(work, "a", "tenant", name), "utf8");
      expect(await readFile(join(work, "b", "tenant", name), "utf8"), name).toBe(a);
      for (const secret of Object.values(SEED_SECRETS)) expect(a, name).not.toContain(secret);
    }
    expect(out.join("")).toMatch(/^ {2}pulumi config set --secret acmeOrdersSourceDatabasePassword +# source "acme-orders": database\.password$/m);
  });

  it("filters: --kind, --name, --tag; references to what is left out are ids with a comment", async () => {
    const sources = await importing(["--out", join(work, "kind"), "--kind", "sources"]);
    expect(idents(sources)).toEqual(["acmeEventsSource", "acmeInventorySource", "acmeLegacyCrmSource", "acmeOrdersSource", "acmeSessionsSource"]);
    const index = await readFile(join(work, "kind", "index.ts"), "utf8");
    expect(index).toMatch(/"[0-9a-f]{24}" \/\* tag "acme-pii": not imported: --kind leaves it out \*\//);
    expect(index).not.toContain("Client credentials");

    const named = await importing(["--out", join(work, "name"), "--name", "acme-orders*", "--name", "acme-gpt"]);
    expect(idents(named)).toEqual(["acmeGptLlmConnection", "acmeOrdersSource", "acmeOrdersToWarehousePipeline"]);

    const tagged = await importing(["--out", join(work, "tag"), "--tag", "acme-pii"]);
    expect(idents(tagged)).toEqual(["acmePiiTag", "acmeOrdersSource", "acmeWarehouseDestination", "acmeWarehouseSmtChain", "acmeOrdersToWarehousePipeline", "cleanOrdersTopic"]);
    const nothing = await importing(["--out", join(work, "none"), "--tag", "no-such-tag"]);
    expect(nothing.model!.resources).toEqual([]);
    expect(err.join("")).toContain('no tag is named "no-such-tag"');
  });

  it("--stack: the API settings from the stack's config; --skip-managed leaves out what the stack manages", async () => {
    const web2 = emulator;
    const runPulumi: PulumiRunner = async (args) => {
      pulumiCalls.push([...args]);
      const [a, b] = args;
      // As Pulumi lists them: plain values, and the secret one's only with --show-secrets.
      if (a === "config" && b === "--json") {
        const secret = args.includes("--show-secrets") ? { value: web2.clientSecret, secret: true } : { secret: true };
        const listing = { "cdc:apiUrl": { value: web2.url, secret: false }, "cdc:clientId": { value: web2.clientId, secret: false }, "cdc:clientSecret": secret };
        return { code: 0, stdout: JSON.stringify(listing), stderr: "" };
      }
      if (a === "stack" && b === "export") {
        const resources = [
          { urn: "urn:pulumi:prod::p::pulumi:pulumi:Stack::p-prod", type: "pulumi:pulumi:Stack" },
          { urn: "urn:pulumi:prod::p::pulumi-nodejs:dynamic/cdc:Source::orders", type: "pulumi-nodejs:dynamic/cdc:Source", id: seeded.ids.sources[0] },
          { urn: "urn:pulumi:prod::p::cdc:index:Tag::pii", type: "cdc:index:Tag", id: seeded.ids.tags[0] },
        ];
        return { code: 0, stdout: JSON.stringify({ version: 3, deployment: { resources } }), stderr: "" };
      }
      return { code: 1, stdout: "", stderr: "error: unexpected" };
    };
    // No CDC_* variables: the settings can only come from the stack.
    const r = await importing(["--out", join(work, "managed"), "--stack", "prod", "--skip-managed"], { runPulumi, env: {} });
    expect(r.code, err.join("")).toBe(0);
    expect(pulumiCalls).toEqual(expect.arrayContaining([["stack", "export", "--stack", "prod"]]));
    expect(idents(r)).not.toContain("acmeOrdersSource");
    expect(idents(r)).not.toContain("acmePiiTag");
    expect(r.model!.resources).toHaveLength(seeded.count - 2);
    const index = await readFile(join(work, "managed", "index.ts"), "utf8");
    expect(index).toContain(`source: "${seeded.ids.sources[0]}" /* source "acme-orders": managed by stack prod */,`);
    expect(index).toMatch(/\/\* tag "acme-pii": managed by stack prod \*\//);
  });

  it("--lang python writes Pulumi.yaml (python runtime, venv), __main__.py and requirements.txt (the checkout's SDK); Python parses it; no API write", async () => {
    const dir = join(work, "python");
    emulator.resetStats();
    const r = await importing(["--out", dir, "--lang", "python"]);
    expect(Object.keys(emulator.stats().requests).filter((x) => /^(POST|PUT|PATCH|DELETE) /.test(x) && !x.startsWith("POST /auth/"))).toEqual([]);
    expect(r.code).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(["Pulumi.yaml", "README.md", "__main__.py", "requirements.txt"]);
    expect(await readFile(join(dir, "Pulumi.yaml"), "utf8")).toMatch(/runtime:\n  name: python\n  options:\n(    #.*\n)?    virtualenv: venv\n/);
    const reqs = (await readFile(join(dir, "requirements.txt"), "utf8")).split("\n").filter((l) => l !== "" && !l.startsWith("#"));
    expect(reqs[1]).toBe(relative(dir, join(__dirname, "..", "..", "..", "generated", "sdks", "python")));
    const py = await readFile(join(dir, "__main__.py"), "utf8");
    parsePython(py);
    expect(py).toContain("import pulumi_cdc as cdc");
    expect(py).toMatch(/^[a-z0-9_]+ = cdc\.Source\($/m);
    expect(py).toMatch(/^    adopt_id="/m);
    expect(py).toMatch(/config\.require_secret\("[A-Za-z0-9]+"\)/);
  });

  it("--lang yaml writes a YAML program on the plugin's tokens; --pulumi-import-file a file for pulumi import -f", async () => {
    const dir = join(work, "yaml");
    const r = await importing(["--out", dir, "--lang", "yaml", "--pulumi-import-file", join(dir, "resources.json")]);
    expect(r.code, err.join("")).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(["Pulumi.yaml", "README.md", "resources.json"]);
    const doc = load(await readFile(join(dir, "Pulumi.yaml"), "utf8")) as { runtime: string; config: Record<string, unknown>; resources: Record<string, { type: string; properties: Record<string, unknown> }> };
    expect(doc.runtime).toBe("yaml");
    expect(Object.keys(doc.config)).toHaveLength(13);
    const types = Object.values(doc.resources).map((x) => x.type);
    expect(types).toHaveLength(seeded.count);
    expect(new Set(types)).toEqual(new Set(["cdc:index:Tag", "cdc:index:LlmConnection", "cdc:index:HttpConnection", "cdc:index:Agent", "cdc:index:Source", "cdc:index:Destination", "cdc:index:DestinationSmtChain", "cdc:index:Transform", "cdc:index:Pipeline", "cdc:index:Topic"]));
    expect(doc.resources.acmeOrdersSource!.properties).toMatchObject({ connector: "postgresql", config: { "database.password": "${acmeOrdersSourceDatabasePassword}", "database.sslmode": "disable" }, adoptId: seeded.ids.sources[0] });
    const file = JSON.parse(await readFile(join(dir, "resources.json"), "utf8")) as { resources: Array<{ type: string; name: string; id: string }> };
    expect(file.resources).toHaveLength(seeded.count);
    expect(file.resources).toContainEqual({ type: "cdc:index:Pipeline", name: "acmeOrdersToWarehousePipeline", id: seeded.ids.pipelines[0] });
  });

  it("bad input writes nothing: an --out holding a program (unless --force), an unreachable API, bad credentials", async () => {
    const existing = join(work, "existing");
    await mkdir(existing, { recursive: true });
    await writeFile(join(existing, "Pulumi.yaml"), "name: mine\nruntime: yaml\n");
    const before = emulator.stats().total;
    const refused = await importing(["--out", existing]);
    expect(refused.code).toBe(1);
    expect(err.join("")).toBe(`pulumi-cdc import: --out ${existing} already holds a program (Pulumi.yaml): choose an empty directory, or pass --force to replace its files\nNothing was written.\n`);
    expect(emulator.stats().total).toBe(before);
    expect(await readdir(existing)).toEqual(["Pulumi.yaml"]);
    const forced = await importing(["--out", existing, "--force"]);
    expect(forced.code).toBe(0);
    expect(await readFile(join(existing, "Pulumi.yaml"), "utf8")).toMatch(/^name: existing\n/);

    const unreachable = join(work, "unreachable");
    const down = await importing(["--out", unreachable], { env: { ...env(), CDC_API_URL: "http://127.0.0.1:9" } });
    expect(down.code).toBe(1);
    expect(err.join("")).toMatch(/^pulumi-cdc import: .*ECONNREFUSED[\s\S]*Nothing was written\.\n$/);
    expect(existsSync(unreachable)).toBe(false);

    const denied = join(work, "denied");
    const bad = await importing(["--out", denied], { env: { ...env(), CDC_CLIENT_SECRET: "wrong-secret" } });
    expect(bad.code).toBe(1);
    expect(err.join("")).toMatch(/^pulumi-cdc import: .*401[\s\S]*Nothing was written\.\n$/);
    expect(err.join("")).not.toContain("wrong-secret");
    expect(existsSync(denied)).toBe(false);

    const noSettings = await importing(["--out", join(work, "nosettings")], { env: {} });
    expect(noSettings.code).toBe(1);
    expect(err.join("")).toMatch(/^pulumi-cdc import: [\s\S]*cdc:clientId is not set[\s\S]*CDC_CLIENT_ID[\s\S]*Nothing was written/);
  });
});

describe("pulumi-cdc import of an API source's topics sent to destinations", () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let work: string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    work = await mkdtemp(join(tmpdir(), "pulumi-cdc-import-bindings-"));
  });
  afterAll(async () => {
    await web?.close();
    await emulator?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("finds each binding by asking the topic and destination pairs, and writes a TopicDestination after its source and destination", async () => {
    const crm = (await web.post("/sources", { body: { name: "crm", connector: "hubspot", config: { resources: ["contacts", "deals"], token: "pat-1" }, created_from: "web" } })) as { id: string };
    const snowflake = { "snowflake.url.name": "a", "snowflake.user.name": "b", "snowflake.private.key": "c", "snowflake.database.name": "d", "snowflake.schema.name": "e" };
    const warehouse = (await web.post("/destinations", { body: { name: "warehouse", connector: "snowflake", config: snowflake, created_from: "web" } })) as { id: string };
    await web.post("/destinations", { body: { name: "spare", connector: "snowflake", config: snowflake, created_from: "web" } });
    const deals = `source_${crm.id}.hubspot.deals`;
    await web.put("/topics/{t}/destinations/{d}", { params: { t: deals, d: warehouse.id } });

    emulator.resetStats();
    const out: string[] = [];
    const err: string[] = [];
    const parsed = parseImportArgs(["--out", join(work, "ts")]);
    if (parsed.command !== "import") throw new Error("not an import");
    const result = await runImport(parsed.options, {
      runPulumi: async () => ({ code: 1, stdout: "", stderr: "error: no Pulumi here" }),
      env: { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret },
      cwd: work,
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      createClient: (settings, tuning) => new CdcClient({ settings, retry: tuning.retry }),
    });
    expect(result.code, err.join("")).toBe(0);
    expect(Object.keys(emulator.stats().requests).filter((r) => /^(POST|PUT|PATCH|DELETE) /.test(r) && !r.startsWith("POST /auth/"))).toEqual([]);
    const binding = result.model!.resources.find((r) => r.kind === "TopicDestination")!;
    expect(binding).toMatchObject({ ident: "dealsToWarehouseTopicDestination", inputs: { topicId: deals, destinationId: new Reference({ ident: "warehouseDestination" }) }, dependsOn: [{ ident: "crmSource" }] });
    expect(result.model!.resources.map((r) => r.kind).indexOf("TopicDestination")).toBe(result.model!.resources.length - 1);
    const index = await readFile(join(work, "ts", "index.ts"), "utf8");
    expect(index).toContain(`const dealsToWarehouseTopicDestination = new TopicDestination("dealsToWarehouseTopicDestination", {\n  topicId: ${JSON.stringify(deals)},\n  destination: warehouseDestination,\n}, { dependsOn: [crmSource] });`);
  });
});

describe("pulumi-cdc import of destinations' SMT chains", () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let work: string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    work = await mkdtemp(join(tmpdir(), "pulumi-cdc-import-chains-"));
  });
  afterAll(async () => {
    await web?.close();
    await emulator?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const importing = async (argv: string[]) => {
    const err: string[] = [];
    const parsed = parseImportArgs(argv);
    if (parsed.command !== "import") throw new Error("not an import");
    const result = await runImport(parsed.options, {
      runPulumi: async () => ({ code: 1, stdout: "", stderr: "error: no Pulumi here" }),
      env: { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret },
      cwd: work,
      stdout: () => undefined,
      stderr: (t) => err.push(t),
      createClient: (settings, tuning) => new CdcClient({ settings, retry: tuning.retry }),
    });
    expect(result.code, err.join("")).toBe(0);
    return result;
  };

  it("reads each destination's chain with no write and writes a DestinationSmtChain after its destination, entries as the SDK types them, the salt kept as the mask", async () => {
    const snowflake = { "snowflake.url.name": "a", "snowflake.user.name": "b", "snowflake.private.key": "c", "snowflake.database.name": "d", "snowflake.schema.name": "e" };
    const destination = async (name: string) => ((await web.post("/destinations", { body: { name, connector: "snowflake", config: snowflake, created_from: "web" } })) as { id: string }).id;
    const warehouse = await destination("warehouse");
    await destination("untouched");
    const emptied = await destination("emptied");
    const chain = "/destinations/{id}/smt-chain";
    // As the console saves a chain: the whole user chain, the salt as a secret operation.
    await web.put(chain, {
      params: { id: warehouse },
      body: {
        transforms: [
          { type: "mask_field", name: "Mask email", enabled: true, config: { fields_include: ["orders.email"], mask_function: "SHA256" }, secret_operations: [{ pointer: "/mask_salt", operation: "replace", value: "console-salt-1" }] },
          { type: "regex_router", name: "Route orders", enabled: false, config: { regex: "(.*)_orders", replacement: "$1" } },
        ],
      },
    });
    const made = (await web.put(chain, { params: { id: emptied }, body: { transforms: [{ type: "drop_fields", name: "Drop", enabled: true, config: { fields_include: ["x"] } }] } })) as { desired: { chain_revision: string } };
    await web.put(chain, { params: { id: emptied }, body: { expected_revision: made.desired.chain_revision, transforms: [] } });

    emulator.resetStats();
    const ts = await importing(["--out", join(work, "ts"), "--pulumi-import-file", join(work, "ts", "import.json")]);
    await importing(["--out", join(work, "yaml"), "--lang", "yaml"]);
    expect(Object.keys(emulator.stats().requests).filter((r) => /^(POST|PUT|PATCH|DELETE) /.test(r) && !r.startsWith("POST /auth/"))).toEqual([]);
    expect(emulator.stats().requests["GET /destinations/:destination_id/smt-chain"]).toBe(6);

    const entries = [
      { type: "mask_field", name: "Mask email", fieldsInclude: ["orders.email"], maskFunction: "SHA256", maskSalt: "********" },
      { type: "regex_router", name: "Route orders", enabled: false, regex: "(.*)_orders", replacement: "$1" },
    ];
    // No chain (smt_chain_absent) and an emptied chain are both none.
    expect(ts.model!.resources.filter((r) => r.kind === "DestinationSmtChain")).toEqual([
      {
        kind: "DestinationSmtChain",
        ident: "warehouseSmtChain",
        id: warehouse,
        name: "warehouse",
        inputs: { destination: new Reference({ ident: "warehouseDestination" }), transforms: entries },
        dependsOn: [],
        notes: [expect.stringContaining('transforms[0].maskSalt of "Mask email" is "********": it keeps the secret the platform holds')],
      },
    ]);
    expect(ts.model!.resources.map((r) => r.ident)).toEqual(["emptiedDestination", "untouchedDestination", "warehouseDestination", "warehouseSmtChain"]);
    // The salt is no config secret: nothing to set for it.
    expect(ts.model!.secrets.map((s) => s.what)).not.toContainEqual(expect.stringContaining("salt"));

    const index = await readFile(join(work, "ts", "index.ts"), "utf8");
    expect(index).toContain(
      [
        'const warehouseSmtChain = new DestinationSmtChain("warehouseSmtChain", {',
        "  destination: warehouseDestination,",
        "  transforms: [",
        "    {",
        '      type: "mask_field",',
        '      name: "Mask email",',
        '      fieldsInclude: ["orders.email"],',
        '      maskFunction: "SHA256",',
        '      maskSalt: "********",',
        "    },",
        "    {",
        '      type: "regex_router",',
        '      name: "Route orders",',
        "      enabled: false,",
        '      regex: "(.*)_orders",',
        '      replacement: "$1",',
        "    },",
        "  ],",
        "});",
      ].join("\n"),
    );
    expect(index).not.toContain("console-salt-1");
    const doc = load(await readFile(join(work, "yaml", "Pulumi.yaml"), "utf8")) as { resources: Record<string, unknown> };
    expect(doc.resources.warehouseSmtChain).toEqual({ type: "cdc:index:DestinationSmtChain", properties: { destination: "${warehouseDestination.id}", transforms: entries } });
    const file = JSON.parse(await readFile(join(work, "ts", "import.json"), "utf8")) as { resources: unknown[] };
    expect(file.resources).toContainEqual({ type: "cdc:index:DestinationSmtChain", name: "warehouseSmtChain", id: warehouse });

    const only = await importing(["--out", join(work, "only"), "--kind", "smt-chains"]);
    expect(only.model!.resources.map((r) => r.ident)).toEqual(["warehouseSmtChain"]);
    expect(await readFile(join(work, "only", "index.ts"), "utf8")).toContain(`  destination: "${warehouse}" /* destination "warehouse": not imported: --kind leaves it out */,`);
  });
});
