import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { CATALOGUE } from "../../catalogue/index.js";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { destinationEnvelopeSchema } from "../../provider/client/index.js";
import { ENGINE_TIMEOUT_MS, TestStack, type CommandResult } from "../support/pulumi.js";
import { tagItems, ConsoleClient, webClient } from "../support/web.js";
import { requiredConfig } from "../support/catalogue-samples.js";
import { plain } from "../support/yaml.js";

// The plugin's typed resources (cdc:sources:Postgresql, cdc:destinations:Snowflake,
// cdc:transforms:MapFilter) under the real engine and pulumi-language-yaml, against the emulator:
// `pulumi import` of each writes typed YAML that previews with no changes; a small typed program
// goes up, previews clean, shows a console edit under its typed property (and to `pulumi-cdc
// drift`), names a bad typed value before any API call, reconciles and is destroyed.

const REPO_ROOT = resolve(__dirname, "..", "..");

/** The values a person typed in the console, or a program's secrets: none may reach the stack in plain text. */
const PG_PASSWORD = "PG-TYPED-SENTINEL-7a1c";
const SNOWFLAKE_KEY = "SF-TYPED-SENTINEL-3e9d";

/** Text with the indentation of its least indented line removed, trimmed: expected YAML, written inline (raw: `\.` stays). */
function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = strings.raw.reduce((out, s, i) => out + s + (i < values.length ? String(values[i]) : ""), "");
  const lines = text.replace(/^\n/, "").trimEnd().split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join("\n");
}

/** A Pulumi YAML project in a temporary directory, on this checkout's plugin (bin/, after `npm run build`). */
class YamlProject {
  private constructor(
    readonly dir: string,
    private readonly name: string,
  ) {}

  static async create(name: string, body = ""): Promise<YamlProject> {
    if (!existsSync(join(REPO_ROOT, "dist", "plugin", "main.js"))) throw new Error("dist/plugin/main.js is missing: build first (npm run build, or cdc_build)");
    const project = new YamlProject(await mkdtemp(join(tmpdir(), "pulumi-cdc-typed-")), name);
    await project.write(body);
    return project;
  }

  /** Writes Pulumi.yaml: the header (plugins.providers at this checkout's bin/), then `body` as it is. */
  write(body: string) {
    const header = [`name: ${this.name}`, "runtime: yaml", "plugins:", "  providers:", "    - name: cdc", `      path: ${JSON.stringify(join(REPO_ROOT, "bin"))}`];
    return writeFile(join(this.dir, "Pulumi.yaml"), `${[...header, body.trimEnd()].join("\n")}\n`);
  }

  dispose() {
    return rm(this.dir, { recursive: true, force: true });
  }
}

/** An emulator, a person's web client on it, a YAML project and its stack (CDC_* pointing at the emulator). */
function environment(stackName: string, body = "") {
  const env = {} as { emulator: RunningEmulator; web: ConsoleClient; project: YamlProject; stack: TestStack };
  beforeAll(async () => {
    env.emulator = await startEmulator({ port: 0 });
    env.web = webClient(env.emulator);
    env.project = await YamlProject.create(`cdc-${stackName}`, body);
    env.stack = await TestStack.create(env.project.dir, {
      stackName,
      env: { CDC_API_URL: env.emulator.url, CDC_CLIENT_ID: env.emulator.clientId, CDC_CLIENT_SECRET: env.emulator.clientSecret },
    });
  });
  afterAll(async () => {
    await env.stack?.dispose();
    await env.project?.dispose();
    await env.web?.close();
    await env.emulator?.stop();
  });
  return env;
}

async function stackResources(stack: TestStack): Promise<Array<{ type: string; urn: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }>> {
  return (JSON.parse(await stack.exportState()) as { deployment: { resources?: [] } }).deployment.resources ?? [];
}

const anyItem = z.looseObject({});

/** The tenant's sources, destinations and transforms, as id lists. */
async function inventory(web: ConsoleClient): Promise<Record<string, string[]>> {
  const ids = (items: Array<Record<string, unknown>>) => items.map((i) => String(i.id)).sort();
  return {
    sources: ids(await web.listAll("/sources", {}, anyItem)),
    destinations: ids(await web.listAll("/destinations", {}, anyItem)),
    transforms: ids(await web.listAll("/transforms", {}, anyItem)),
  };
}

const PG_CONFIG = {
  "database.hostname.user.defined": "orders-db.internal",
  "database.port.user.defined": "5433",
  "database.user": "cdc_reader",
  "database.password": PG_PASSWORD,
  "database.dbname": "shop",
  "schema.include.list": "public",
  "table.include.list.user.defined": "public.orders,public.customers",
  "snapshot.read.only.user.defined": "No",
  "binary.handling.mode": "base64-url-safe",
};

const SNOWFLAKE_CONFIG = {
  "snowflake.url.name": "acme.snowflakecomputing.com",
  "snowflake.user.name": "CDC_LOADER",
  "snowflake.private.key": SNOWFLAKE_KEY,
  "snowflake.database.name": "ANALYTICS",
  "snowflake.schema.name": "RAW",
};

let outs = 0;
/** `pulumi import <type> <name> <id> --yes --out <file>`: the import, and the code it generated. */
async function runImport(stack: TestStack, type: string, name: string, id: string, opts: { allowFailure?: boolean } = {}): Promise<{ result: CommandResult; code: string }> {
  const out = join(stack.programDir, `generated-${++outs}.yaml`);
  const result = await stack.run(["import", type, name, id, "--yes", "--out", out, "--stack", stack.stackName], opts);
  const code = existsSync(out) ? (await readFile(out, "utf8")).trimEnd() : "";
  await rm(out, { force: true });
  return { result, code };
}

describe("pulumi import of typed resources writes typed YAML that previews with no changes", { timeout: ENGINE_TIMEOUT_MS }, () => {
  const env = environment("import-typed");
  /** The resources of the program so far, as `pulumi import` generated them. */
  const resources: string[] = [];
  const imported: string[] = [];
  const ids: Record<string, string> = {};

  async function importAndAdd(type: string, name: string, id: string, expected: string) {
    const generated = await runImport(env.stack, type, name, id);
    expect(generated.result.stdout).toMatch(new RegExp(`=\\s+${type}\\s+${name}\\s+imported`));
    expect(generated.code).toBe(expected);
    const lines = generated.code.split("\n");
    expect(lines[0]).toBe("resources:");
    resources.push(lines.slice(1).join("\n"));
    imported.push(id);
    await env.project.write(["resources:", ...resources].join("\n"));
  }

  async function previewsClean() {
    const preview = await env.stack.preview(["--expect-no-changes"]);
    expect(preview.stdout).toMatch(new RegExp(`${imported.length + 1} unchanged`));
  }

  it("imports a cdc:sources:Postgresql: typed properties (an integer, enum values), no defaults, the password as the mask, its tags", async () => {
    const { web } = env;
    ids.team = ((await web.post("/tags", { body: { name: "team-data", type: ["sources", "destinations", "transforms"], created_from: "web" } })) as { id: string }).id;
    ids.source = ((await web.post("/sources", { body: { name: "orders", connector: "postgresql", config: PG_CONFIG, tags: [ids.team], created_from: "web" } })) as { id: string }).id;

    await importAndAdd(
      "cdc:sources:Postgresql",
      "orders",
      ids.source,
      yaml`
        resources:
          orders:
            type: cdc:sources:Postgresql
            properties:
              binaryHandlingMode: base64-url-safe
              databaseDbname: shop
              databaseHostname: orders-db.internal
              databasePassword: '********'
              databasePort: 5433
              databaseUser: cdc_reader
              name: orders
              schemaIncludeList: public
              snapshotReadOnly: No
              tableIncludeList: public.orders,public.customers
              tags:
                - ${ids.team}
            options:
              protect: true`,
    );
    await previewsClean();
  });

  it("imports a cdc:destinations:Snowflake: its typed properties, the private key as the mask, the state it was paused in", async () => {
    const { web } = env;
    ids.destination = ((await web.post("/destinations", { body: { name: "warehouse", connector: "snowflake", config: SNOWFLAKE_CONFIG, created_from: "web" } })) as { id: string }).id;
    await web.put(`/destinations/${ids.destination}/pause`);

    await importAndAdd(
      "cdc:destinations:Snowflake",
      "warehouse",
      ids.destination,
      yaml`
        resources:
          warehouse:
            type: cdc:destinations:Snowflake
            properties:
              desiredState: paused
              name: warehouse
              snowflakeDatabaseName: ANALYTICS
              snowflakePrivateKey: '********'
              snowflakeSchemaName: RAW
              snowflakeUrlName: acme.snowflakecomputing.com
              snowflakeUserName: CDC_LOADER
            options:
              protect: true`,
    );
    await previewsClean();
    // The state holds the typed resource: no connector or config, the key only as the API's mask, apart.
    const state = (await stackResources(env.stack)).find((r) => r.id === ids.destination)!;
    expect(state.type).toBe("cdc:destinations:Snowflake");
    expect(state.outputs).toMatchObject({ name: "warehouse", snowflakeSchemaName: "RAW", desiredState: "paused", status: "Paused" });
    expect(state.outputs).not.toHaveProperty("config");
    expect(state.outputs).not.toHaveProperty("snowflakePrivateKey");
    // The schema makes the key a secret, so the code needs no fn::secret: the engine keeps it encrypted.
    expect(state.inputs!.snowflakePrivateKey).toHaveProperty("ciphertext");
  });

  it("imports a cdc:transforms:MapFilter: its settings as typed properties, the name as name", async () => {
    const { web } = env;
    ids.transform = (
      (await web.post("/transforms", {
        body: {
          transform: "map_filter",
          config: { "transforms.name": "clean-orders", "transforms.input.topic.pattern": "public\\.(.*)", "transforms.output.topic.pattern": "clean.$1", "transforms.input.job.parallelism": 8 },
          tags: [ids.team],
          created_from: "web",
        },
      })) as { id: string }
    ).id;

    await importAndAdd(
      "cdc:transforms:MapFilter",
      "clean",
      ids.transform,
      yaml`
        resources:
          clean:
            type: cdc:transforms:MapFilter
            properties:
              name: clean-orders
              tags:
                - ${ids.team}
              transformsInputJobParallelism: 8
              transformsInputTopicPattern: public\.(.*)
              transformsOutputTopicPattern: clean.$1
            options:
              protect: true`,
    );
    await previewsClean();
  });

  it("refuses to import another connector's object under a typed token, naming the token to use", async () => {
    const { web, stack } = env;
    const other = ((await web.post("/sources", { body: { name: "other", connector: "mysql", config: requiredConfig(CATALOGUE.source.mysql!), created_from: "web" } })) as { id: string }).id;
    const wrong = await runImport(stack, "cdc:sources:Postgresql", "wrong", other, { allowFailure: true });
    expect(wrong.result.code).not.toBe(0);
    expect(plain(wrong.result.output)).toContain(`source ${other} is a mysql source, not postgresql: import it as cdc:sources:Mysql`);
    expect((await stackResources(stack)).map((r) => r.id)).not.toContain(other);
    await web.delete(`/sources/${other}`);
  });

  it("keeps no secret in plain text, and destroy deletes exactly the imported objects", async () => {
    const { web, stack } = env;
    const checkpoint = await stack.exportState();
    for (const secret of [PG_PASSWORD, SNOWFLAKE_KEY]) expect(checkpoint).not.toContain(secret);
    const before = await inventory(web);
    await stack.run(["state", "unprotect", "--all", "--yes", "--stack", stack.stackName]);
    const destroy = await stack.destroy();
    expect(destroy.stdout).toMatch(/-\s+cdc:sources:Postgresql\s+orders\s+deleted/);
    expect(destroy.stdout).toMatch(/-\s+cdc:destinations:Snowflake\s+warehouse\s+deleted/);
    expect(destroy.stdout).toMatch(/-\s+cdc:transforms:MapFilter\s+clean\s+deleted/);
    expect(await stackResources(stack)).toEqual([]);
    const after = await inventory(web);
    expect(after).toEqual({
      sources: before.sources!.filter((id) => id !== ids.source),
      destinations: before.destinations!.filter((id) => id !== ids.destination),
      transforms: before.transforms!.filter((id) => id !== ids.transform),
    });
  });
});

/** A small program of typed resources, a secret of each connector from the stack's config. */
const PROGRAM = (port: number) => yaml`
  config:
    dbPassword:
      type: string
      secret: true
    snowflakePrivateKey:
      type: string
      secret: true
  resources:
    orders:
      type: cdc:sources:Postgresql
      properties:
        databaseHostname: orders-db.internal
        databasePort: ${port}
        databaseUser: cdc_reader
        databasePassword: ${"${dbPassword}"}
        databaseDbname: shop
        schemaIncludeList: public
        tableIncludeList: public.orders,public.customers
        snapshotReadOnly: "No"
    warehouse:
      type: cdc:destinations:Snowflake
      properties:
        snowflakeUrlName: acme.snowflakecomputing.com
        snowflakeUserName: CDC_LOADER
        snowflakePrivateKey: ${"${snowflakePrivateKey}"}
        snowflakeDatabaseName: ANALYTICS
        snowflakeSchemaName: RAW
        ingestionMode: upsert
    clean:
      type: cdc:transforms:MapFilter
      properties:
        transformsInputTopicPattern: public\.(.*)
        transformsOutputTopicPattern: clean.$1
    pipeline:
      type: cdc:index:Pipeline
      properties:
        source:
          id: ${"${orders.id}"}
        destination:
          id: ${"${warehouse.id}"}
        sourceTopics:
          - public.orders
  outputs:
    sourceId: ${"${orders.id}"}
    destinationId: ${"${warehouse.id}"}
    topics: ${"${orders.topics}"}
    transformName: ${"${clean.name}"}
`;

describe("a typed YAML program: up, an empty preview, drift under the typed property, a bad value, destroy", { timeout: ENGINE_TIMEOUT_MS }, () => {
  const env = environment("typed", PROGRAM(5433));
  const printed: string[] = [];
  const record = (r: CommandResult) => (printed.push(r.output), { ...r, output: plain(r.output), stdout: plain(r.stdout) });
  let outputs: Record<string, unknown>;

  it("up creates the typed source, destination and transform and a pipeline between them; a preview has no changes; no secret in plain text", async () => {
    const { stack, web } = env;
    await stack.setConfigs({}, { dbPassword: PG_PASSWORD, snowflakePrivateKey: SNOWFLAKE_KEY });
    const up = record(await stack.up());
    expect(up.stdout).toMatch(/\+ 5 created/);
    for (const [type, name] of [
      ["cdc:sources:Postgresql", "orders"],
      ["cdc:destinations:Snowflake", "warehouse"],
      ["cdc:transforms:MapFilter", "clean"],
      ["cdc:index:Pipeline", "pipeline"],
    ]) {
      expect(up.stdout).toMatch(new RegExp(`\\+\\s+${type}\\s+${name}\\s+created`));
    }
    outputs = await stack.outputs();
    expect(outputs.topics).toEqual(["public.orders", "public.customers"]);
    expect(outputs.transformName).toMatch(/^clean-[0-9a-f]{8}$/);

    // What the API holds: the platform's keys, the enum's value, the secrets sent.
    const source = (await web.get(`/sources/${String(outputs.sourceId)}`)) as { result?: Array<{ connector: string; config: Record<string, unknown> }> } & { connector?: string; config?: Record<string, unknown> };
    const live = source.result?.[0] ?? source;
    expect(live).toMatchObject({ connector: "postgresql", config: { "database.port.user.defined": expect.anything(), "snapshot.read.only.user.defined": "No" } });
    expect(String(live.config!["database.port.user.defined"])).toBe("5433");

    const preview = record(await stack.preview(["--expect-no-changes"]));
    expect(preview.stdout).toMatch(/5 unchanged/);
    const exported = await stack.exportState();
    for (const secret of [PG_PASSWORD, SNOWFLAKE_KEY]) {
      expect(exported).not.toContain(secret);
      for (const out of printed) expect(out).not.toContain(secret);
    }
  });

  it("a console edit of the destination shows in a plain preview under snowflakeSchemaName, and to pulumi-cdc drift", async () => {
    const { stack, web } = env;
    const id = String(outputs.destinationId);
    const live = (await web.get("/destinations/{id}", { params: { id }, schema: destinationEnvelopeSchema })).result[0]!;
    await web.put("/destinations/{id}", { params: { id }, body: { name: live.name, connector: live.connector, config: { ...live.config, "snowflake.schema.name": "HOTFIX" } } });

    const drifted = record(await stack.run(["preview", "--expect-no-changes", "--stack", stack.stackName], { allowFailure: true }));
    expect(drifted.code).not.toBe(0);
    expect(drifted.output).toMatch(/~\s+cdc:destinations:Snowflake\s+warehouse\s+update\s+\[diff: ~snowflakeSchemaName\]/);
    expect(drifted.output).toMatch(/~ 1 to update/);
    expect(drifted.output).toContain(`warning: drift: destination "${live.name}" (${id}) changed outside Pulumi`);

    const cli = await stack.drift(["--json"]);
    printed.push(cli.stdout, cli.stderr);
    expect(cli.code, cli.stderr).toBe(2);
    const report = JSON.parse(cli.stdout) as { resources: Array<{ type: string; id: string; drift: { detected: boolean; maskedDiff: string } }> };
    const byType = (type: string) => report.resources.find((r) => r.type === type)!;
    expect(byType("destination")).toMatchObject({ id, drift: { detected: true, maskedDiff: expect.stringContaining("+snowflake.schema.name: HOTFIX") } });
    expect(byType("source")).toMatchObject({ id: outputs.sourceId, drift: { detected: false } });
    expect(byType("transform").drift.detected).toBe(false);

    const up = record(await stack.up());
    expect(up.stdout).toMatch(/~\s+cdc:destinations:Snowflake\s+warehouse\s+updated/);
    expect((await web.get("/destinations/{id}", { params: { id }, schema: destinationEnvelopeSchema })).result[0]!.config!["snowflake.schema.name"]).toBe("RAW");
    expect(record(await stack.preview(["--expect-no-changes"])).stdout).toMatch(/5 unchanged/);
  });

  it("a typed value out of range fails the preview naming the typed property, before any API call", async () => {
    const { stack, project, emulator } = env;
    await project.write(PROGRAM(99999));
    // The other resources' diffs read the API; nothing is written (tokens aside).
    const writes = () => Object.entries(emulator.stats().requests).filter(([route]) => !route.startsWith("GET ") && !/token/.test(route));
    const before = writes();
    const bad = record(await stack.preview([], { allowFailure: true }));
    expect(bad.code).not.toBe(0);
    expect(bad.output).toMatch(/databasePort.*must be a whole number between 1 and 65535/);
    expect(bad.output).not.toContain("config[");
    expect(writes()).toEqual(before);
    await project.write(PROGRAM(5433));
  });

  it("destroy leaves no source, destination, transform or pipeline", async () => {
    const { stack, web } = env;
    const destroy = record(await stack.destroy());
    expect(destroy.stdout).toMatch(/- 5 deleted/);
    expect(await inventory(web)).toEqual({ sources: [], destinations: [], transforms: [] });
    expect(await web.listAll("/pipelines", {}, anyItem)).toEqual([]);
    const tags = tagItems(await web.get("/tags", { query: { page_size: 100 } })) as Array<{ system?: boolean }>;
    expect(tags.filter((t) => !t.system)).toEqual([]);
  });
});
