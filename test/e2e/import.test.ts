import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { agentSchema } from "../../provider/client/index.js";
import { ENGINE_TIMEOUT_MS, TestStack, type CommandResult } from "../support/pulumi.js";
import { tagItems, ConsoleClient, webClient } from "../support/web.js";

// `pulumi import` of every kind on the provider plugin, as a person onboards objects made in the
// web console: the CLI asks the plugin's Read for the object (no properties), writes the YAML the
// object's inputs make, and that code, run as it is, previews with no changes. The secrets the
// API never shows come back as its mask `********`: connectors take the mask as it is (the API's
// "keep what is stored"); an HTTP header or an LLM API key is supplied through config instead.

const REPO_ROOT = resolve(__dirname, "..", "..");
const PROJECT = "cdc-import";

/** The values a person typed in the console: none may ever reach the stack in plain text. */
const PG_PASSWORD = "PG-IMPORT-SENTINEL-51d0";
const SNOWFLAKE_KEY = "SF-IMPORT-SENTINEL-c7e2";
const TICKETS_TOKEN = "Bearer HTTP-IMPORT-SENTINEL-2b9f";
const LLM_KEY = "sk-LLM-IMPORT-SENTINEL-8e41";

/** Text with the indentation of its least indented line removed, trimmed: expected YAML, written inline (raw: `\.` stays). */
function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const text = strings.raw.reduce((out, s, i) => out + s + (i < values.length ? String(values[i]) : ""), "");
  const lines = text.replace(/^\n/, "").trimEnd().split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim() !== "").map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join("\n");
}

/**
 * A Pulumi YAML project in a temporary directory, on this checkout's plugin (bin/, after
 * `npm run build`): a header, secret config declarations, and resources appended as the code
 * `pulumi import` generated them.
 */
class YamlProject {
  readonly resources: string[] = [];
  readonly secrets: string[] = [];
  private constructor(readonly dir: string) {}

  static async create(): Promise<YamlProject> {
    if (!existsSync(join(REPO_ROOT, "dist", "plugin", "main.js"))) throw new Error("dist/plugin/main.js is missing: build first (npm run build, or cdc_build)");
    const project = new YamlProject(await mkdtemp(join(tmpdir(), "pulumi-cdc-import-")));
    await project.write();
    return project;
  }

  /** Appends the resources of generated code (everything under its `resources:`), as it is. */
  async add(generated: string) {
    const lines = generated.trimEnd().split("\n");
    expect(lines[0]).toBe("resources:");
    this.resources.push(lines.slice(1).join("\n"));
    await this.write();
  }

  /** Replaces text in the resources written so far (a mask by a config reference); it must be there exactly once. */
  async edit(from: string, to: string) {
    const all = this.resources.join("\n");
    expect(all.split(from).length - 1, `"${from}" once in the program`).toBe(1);
    const i = this.resources.findIndex((r) => r.includes(from));
    this.resources[i] = this.resources[i]!.replace(from, to);
    await this.write();
  }

  async declareSecret(name: string) {
    this.secrets.push(name);
    await this.write();
  }

  text(): string {
    const header = [`name: ${PROJECT}`, "runtime: yaml", "plugins:", "  providers:", "    - name: cdc", `      path: ${JSON.stringify(join(REPO_ROOT, "bin"))}`];
    const config = this.secrets.length > 0 ? ["config:", ...this.secrets.map((s) => `  ${s}:\n    type: string\n    secret: true`)] : [];
    const resources = this.resources.length > 0 ? ["resources:", ...this.resources] : [];
    return [...header, ...config, ...resources].join("\n") + "\n";
  }

  write() {
    return writeFile(join(this.dir, "Pulumi.yaml"), this.text());
  }

  dispose() {
    return rm(this.dir, { recursive: true, force: true });
  }
}

interface Imported {
  result: CommandResult;
  /** The generated code, as `--out` wrote it. */
  code: string;
}

let outs = 0;
/** `pulumi import <args> --yes --out <file>`: the import, and the code it generated. */
async function runImport(stack: TestStack, args: string[]): Promise<Imported> {
  const out = join(stack.programDir, `generated-${++outs}.yaml`);
  const result = await stack.run(["import", ...args, "--yes", "--out", out, "--stack", stack.stackName]);
  const code = (await readFile(out, "utf8")).trimEnd();
  await rm(out);
  return { result, code };
}

function importOne(stack: TestStack, kind: string, name: string, id: string): Promise<Imported> {
  return runImport(stack, [`cdc:index:${kind}`, name, id]);
}

async function stackResources(stack: TestStack): Promise<Array<{ type: string; urn: string; id?: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> }>> {
  return (JSON.parse(await stack.exportState()) as { deployment: { resources?: [] } }).deployment.resources ?? [];
}

const anyItem = z.looseObject({});

/** Every object of the tenant a stack could manage, by kind, as id lists (topics go with their owners). */
async function inventory(web: ConsoleClient): Promise<Record<string, string[]>> {
  const ids = (items: Array<Record<string, unknown>>, key: string) => items.map((i) => String(i[key])).sort();
  const tags = tagItems(await web.get("/tags", { query: { page_size: 100 } })) as Array<{ id: string; system?: boolean }>;
  return {
    tags: ids(tags.filter((t) => !t.system), "id"),
    sources: ids(await web.listAll("/sources", {}, anyItem), "id"),
    destinations: ids(await web.listAll("/destinations", {}, anyItem), "id"),
    credentials: ids((await web.get("/auth/client-credentials")) as Array<Record<string, unknown>>, "client_id"),
    httpConnections: ids(await web.listAll("/agents/connections/http", {}, anyItem), "connection_id"),
    llmConnections: ids(await web.listAll("/agents/connections/llm", {}, anyItem), "connection_id"),
    agents: ids(await web.listAll("/agents", {}, anyItem), "job_id"),
    transforms: ids(await web.listAll("/transforms", {}, anyItem), "id"),
    pipelines: ids(await web.listAll("/pipelines", {}, anyItem), "id"),
  };
}

/** `before` less the given ids, kind by kind. */
function without(before: Record<string, string[]>, gone: readonly string[]): Record<string, string[]> {
  return Object.fromEntries(Object.entries(before).map(([kind, list]) => [kind, list.filter((id) => !gone.includes(id))]));
}

const PG_CONFIG = {
  "database.hostname.user.defined": "orders-db.internal",
  "database.port.user.defined": "5433",
  "database.user": "cdc_reader",
  "database.password": PG_PASSWORD,
  "database.dbname": "shop",
  "schema.include.list": "public",
  "table.include.list.user.defined": "public.orders,public.customers",
};

const SNOWFLAKE_CONFIG = {
  "snowflake.url.name": "acme.snowflakecomputing.com",
  "snowflake.user.name": "CDC_LOADER",
  "snowflake.private.key": SNOWFLAKE_KEY,
  "snowflake.database.name": "ANALYTICS",
  "snowflake.schema.name": "RAW",
};

/** An emulator, a person's web client on it, a YAML project and its stack (CDC_* pointing at the emulator). */
function importEnvironment(stackName: string) {
  const env = {} as { emulator: RunningEmulator; web: ConsoleClient; project: YamlProject; stack: TestStack };
  beforeAll(async () => {
    env.emulator = await startEmulator({ port: 0 });
    env.web = webClient(env.emulator);
    env.project = await YamlProject.create();
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

describe("pulumi import of each kind, into one YAML stack", { timeout: ENGINE_TIMEOUT_MS }, () => {
  const env = importEnvironment("import");
  /** What the person made, by role. */
  const ids: Record<string, string> = {};
  /** The ids of the objects this stack imported, in import order. */
  const imported: string[] = [];

  /** Imports one object (`pulumi import cdc:index:<Kind> <name> <id>`), checks the code it generated, and appends that code to the program as it is. */
  async function importAndAdd(kind: string, name: string, id: string, expected: string): Promise<Imported> {
    const generated = await importOne(env.stack, kind, name, id);
    expect(generated.result.stdout).toMatch(new RegExp(`=\\s+cdc:index:${kind}\\s+${name}\\s+imported`));
    expect(generated.code).toBe(expected);
    imported.push(id);
    await env.project.add(generated.code);
    return generated;
  }

  /** The whole program so far, every kind imported before included, previews with no changes. */
  async function previewsClean() {
    const preview = await env.stack.preview(["--expect-no-changes"]);
    expect(preview.stdout).toMatch(new RegExp(`${imported.length + 1} unchanged`));
  }

  it("imports a Tag: its name, description and types, and no description when it has none", async () => {
    const { web, stack } = env;
    ids.team = ((await web.post("/tags", { body: { name: "team-data", description: "Owned by the data team", type: ["sources", "pipelines", "transforms", "topics"], created_from: "web" } })) as { id: string }).id;
    ids.bare = ((await web.post("/tags", { body: { name: "bare", description: "", type: ["destinations"], created_from: "web" } })) as { id: string }).id;

    await importAndAdd(
      "Tag",
      "team",
      ids.team,
      yaml`
        resources:
          team:
            type: cdc:Tag
            properties:
              description: Owned by the data team
              name: team-data
              type:
                - sources
                - pipelines
                - transforms
                - topics
            options:
              protect: true`,
    );
    // An empty description is the default: the code leaves it out, as a program would.
    await importAndAdd(
      "Tag",
      "bare",
      ids.bare,
      yaml`
        resources:
          bare:
            type: cdc:Tag
            properties:
              name: bare
              type:
                - destinations
            options:
              protect: true`,
    );
    await previewsClean();
    expect((await stackResources(stack)).find((r) => r.id === ids.bare)?.outputs).toMatchObject({ description: "", system: false, custom: true });
  });

  it("imports a Source: the config keys the person set (typed, no defaults, no derived keys), the password as the mask, its tags, no default state", async () => {
    const { web } = env;
    ids.source = ((await web.post("/sources", { body: { name: "orders", connector: "postgresql", config: PG_CONFIG, tags: [ids.team], created_from: "web" } })) as { id: string }).id;

    await importAndAdd(
      "Source",
      "orders",
      ids.source!,
      yaml`
        resources:
          orders:
            type: cdc:Source
            properties:
              config:
                database.dbname: shop
                database.hostname.user.defined: orders-db.internal
                database.password:
                  fn::secret: '********'
                database.port.user.defined: 5433
                database.user: cdc_reader
                schema.include.list: public
                table.include.list.user.defined: public.orders,public.customers
              connector: postgresql
              name: orders
              tags:
                - ${ids.team}
            options:
              protect: true`,
    );
    // The mask is the API's own "keep what is stored": the code runs as it is.
    await previewsClean();
  });

  it("imports a Destination: its config, the private key as the mask, and the state it was paused in", async () => {
    const { web } = env;
    ids.destination = ((await web.post("/destinations", { body: { name: "warehouse", connector: "snowflake", config: SNOWFLAKE_CONFIG, created_from: "web" } })) as { id: string }).id;
    await web.put(`/destinations/${ids.destination}/pause`);

    await importAndAdd(
      "Destination",
      "warehouse",
      ids.destination!,
      yaml`
        resources:
          warehouse:
            type: cdc:Destination
            properties:
              config:
                snowflake.database.name: ANALYTICS
                snowflake.private.key:
                  fn::secret: '********'
                snowflake.schema.name: RAW
                snowflake.url.name: acme.snowflakecomputing.com
                snowflake.user.name: CDC_LOADER
              connector: snowflake
              desiredState: paused
              name: warehouse
            options:
              protect: true`,
    );
    await previewsClean();
  });

  it("imports a ClientCredential without its secret: the API showed it once, to whoever created it, so the output stays absent", async () => {
    const { web, stack } = env;
    const created = (await web.post("/auth/client-credentials", { body: { role_ids: ["role_viewer"], description: "dbt reads pipeline status", created_from: "web" } })) as {
      client_id: string;
      secret: string;
    };
    ids.credential = created.client_id;

    await importAndAdd(
      "ClientCredential",
      "dbt",
      ids.credential,
      yaml`
        resources:
          dbt:
            type: cdc:ClientCredential
            properties:
              description: dbt reads pipeline status
              roleIds:
                - role_viewer
            options:
              protect: true`,
    );
    const state = (await stackResources(stack)).find((r) => r.id === ids.credential)!;
    expect(state.outputs).toEqual({ clientId: ids.credential, description: "dbt reads pipeline status", roleIds: ["role_viewer"], roleKeys: ["viewer"], createdAt: expect.any(String) });
    expect(await stack.exportState()).not.toContain(created.secret);
    await previewsClean();
  });

  it("imports an HttpConnection: header values come back masked, which check() refuses, so the program supplies them through config", async () => {
    const { web, stack, project } = env;
    ids.http = (
      (await web.post("/agents/connections/http", {
        body: { name: "tickets", url: "https://tickets.example.com/api", headers: { Authorization: TICKETS_TOKEN }, created_from: "web" },
      })) as { connection_id: string }
    ).connection_id;

    const generated = await importAndAdd(
      "HttpConnection",
      "tickets",
      ids.http,
      yaml`
        resources:
          tickets:
            type: cdc:HttpConnection
            properties:
              headers:
                Authorization:
                  fn::secret: '********'
              name: tickets
              url: https://tickets.example.com/api
            options:
              protect: true`,
    );
    // The import itself succeeds; the engine passes on check()'s word about the mask.
    expect(generated.result.output).toContain(`"********" is the API's mask, not a value: set the real header value`);
    const asIs = await stack.preview(["--expect-no-changes"], { allowFailure: true });
    expect(asIs.code).not.toBe(0);
    expect(asIs.output).toMatch(/property headers\.Authorization .*"\*{8}" is the API's mask, not a value: set the real header value/);

    await project.declareSecret("ticketsAuthorization");
    await stack.setConfig("ticketsAuthorization", TICKETS_TOKEN, true);
    await project.edit("        Authorization:\n          fn::secret: '********'", "        Authorization: ${ticketsAuthorization}");
    await previewsClean();
    // The value Pulumi never saw is recorded as such (an empty digest): the next write sends it.
    expect((await stackResources(stack)).find((r) => r.id === ids.http)?.outputs).toMatchObject({ headerNames: ["Authorization"], headerDigests: { Authorization: "" } });
    expect(env.emulator.storedHttpHeaders(ids.http)).toEqual({ Authorization: TICKETS_TOKEN });
  });

  it("imports an LlmConnection: the API key comes back masked, which check() refuses, so the program supplies it through config", async () => {
    const { web, stack, project } = env;
    ids.llm = (
      (await web.post("/agents/connections/llm", {
        body: { name: "model", provider: "openai", model: "gpt-4o", api_key: LLM_KEY, base_url: "https://llm-gateway.example.com/v1", created_from: "web" },
      })) as { connection_id: string }
    ).connection_id;

    const generated = await importAndAdd(
      "LlmConnection",
      "model",
      ids.llm,
      yaml`
        resources:
          model:
            type: cdc:LlmConnection
            properties:
              apiKey: '********'
              baseUrl: https://llm-gateway.example.com/v1
              model: gpt-4o
              name: model
              provider: openai
            options:
              protect: true`,
    );
    expect(generated.result.output).toContain(`"********" is the API's mask, not a key: set the real API key`);
    const asIs = await stack.preview(["--expect-no-changes"], { allowFailure: true });
    expect(asIs.code).not.toBe(0);
    expect(asIs.output).toContain(`"********" is the API's mask, not a key: set the real API key`);

    await project.declareSecret("modelApiKey");
    await stack.setConfig("modelApiKey", LLM_KEY, true);
    await project.edit("apiKey: '********'", "apiKey: ${modelApiKey}");
    // No replacement: the key Pulumi never saw is taken as the stored one.
    await previewsClean();
  });

  it("imports an Agent: instructions, connections, and deployed: false for a draft (true, the default, is left out)", async () => {
    const { web } = env;
    ids.agent = (
      (await web.post("/agents", {
        body: {
          name: "pipeline-watcher",
          description: "Opens a ticket when a pipeline breaks",
          instructions: "Watch the CDC pipelines and open a ticket when one breaks.",
          llm_connection_id: ids.llm,
          http_connection_ids: [ids.http],
          deploy: false,
          created_from: "web",
        },
        schema: agentSchema,
      })) as { job_id: string }
    ).job_id;

    await importAndAdd(
      "Agent",
      "watcher",
      ids.agent,
      yaml`
        resources:
          watcher:
            type: cdc:Agent
            properties:
              deployed: false
              description: Opens a ticket when a pipeline breaks
              httpConnectionIds:
                - ${ids.http}
              instructions: Watch the CDC pipelines and open a ticket when one breaks.
              llmConnectionId: ${ids.llm}
              name: pipeline-watcher
            options:
              protect: true`,
    );
    await previewsClean();
  });

  it("imports a Transform: the settings the person set, the name as name, its implementation, deploy: true for a running job, its tags", async () => {
    const { web } = env;
    const created = (await web.post("/transforms", {
      body: {
        transform: "map_filter",
        config: { "transforms.name": "clean-orders", "transforms.input.topic.pattern": "public\\.(.*)", "transforms.output.topic.pattern": "clean.$1", "transforms.input.job.parallelism": 8 },
        tags: [ids.team],
        created_from: "web",
      },
    })) as { id: string };
    ids.transform = created.id;
    // Code as the console saves it, with the platform's null keys; then deployed.
    await web.put(`/transforms/${ids.transform}/implementation_details`, {
      body: { transform_id: ids.transform, implementation: { language: "JAVASCRIPT", value_transform: "function _stk(record) {\n  return record;\n}", key_transform: null } },
    });
    await web.put(`/transforms/${ids.transform}/deploy-job-live/no-version`);
    for (let i = 0; i < 5 && ((await web.get(`/transforms/${ids.transform}/job_status`)) as { status: string }).status !== "RUNNING"; i++);

    await importAndAdd(
      "Transform",
      "clean",
      ids.transform,
      yaml`
        resources:
          clean:
            type: cdc:Transform
            properties:
              config:
                transforms.input.job.parallelism: 8
                transforms.input.topic.pattern: public\.(.*)
                transforms.output.topic.pattern: clean.$1
              deploy: true
              implementation:
                language: JAVASCRIPT
                value_transform: |-
                  function _stk(record) {
                    return record;
                  }
              name: clean-orders
              tags:
                - ${ids.team}
              transform: map_filter
            options:
              protect: true`,
    );
    await previewsClean();
  });

  it("imports a Pipeline: source and destination by id, the topics it sends, snapshots of new tables, its tags", async () => {
    const { web } = env;
    ids.pipeline = (
      (await web.post("/pipelines", {
        body: {
          name: "orders-to-warehouse",
          snapshot_new_tables: true,
          source: { id: ids.source, name: "orders", connector: "postgresql", topics: ["public.orders"] },
          destination: { id: ids.destination, name: "warehouse", connector: "snowflake" },
          transforms: [{ id: ids.transform, topic: "clean.customers" }],
          tags: [ids.team],
          created_from: "web",
        },
      })) as { id: string }
    ).id;

    await importAndAdd(
      "Pipeline",
      "pipeline",
      ids.pipeline,
      yaml`
        resources:
          pipeline:
            type: cdc:Pipeline
            properties:
              destination:
                id: ${ids.destination}
              name: orders-to-warehouse
              snapshotNewTables: true
              source:
                id: ${ids.source}
              sourceTopics:
                - public.orders
              tags:
                - ${ids.team}
              transforms:
                - id: ${ids.transform}
                  topics:
                    - clean.customers
            options:
              protect: true`,
    );
    await previewsClean();
  });

  it("imports a Topic of the source: the partitions the person set, and its tags", async () => {
    const { web } = env;
    const topicId = `source_${ids.source}.public.orders`;
    await web.put(`/topics/${topicId}`, { body: { payload: { partition_count: 6, tags: [ids.team] } } });

    await importAndAdd(
      "Topic",
      "orders-topic",
      topicId,
      yaml`
        resources:
          orders-topic:
            type: cdc:Topic
            properties:
              partitionCount: 6
              tags:
                - ${ids.team}
              topicId: ${topicId}
            options:
              protect: true`,
    );
    await previewsClean();
  });

  it("keeps no secret in plain text, and destroy deletes exactly the imported objects", async () => {
    const { web, stack } = env;
    const checkpoint = await stack.exportState();
    for (const secret of [PG_PASSWORD, SNOWFLAKE_KEY, TICKETS_TOKEN, LLM_KEY]) expect(checkpoint).not.toContain(secret);

    // Something the stack did not import must survive its destroy.
    const other = ((await web.post("/sources", { body: { name: "not-imported", connector: "postgresql", config: PG_CONFIG, created_from: "web" } })) as { id: string }).id;
    const before = await inventory(web);
    expect(before.sources).toContain(other);

    // Imported resources are protected: unprotect them, as `protect: true` removed from the code would.
    await stack.run(["state", "unprotect", "--all", "--yes", "--stack", stack.stackName]);
    // The generated code names other objects by literal id, so the engine knows no order between
    // them and deletes the pipeline and what it uses at once: those deletes wait for the pipeline.
    const destroy = await stack.destroy();
    expect(destroy.stdout).toMatch(/-\s+cdc:index:Source\s+orders\s+deleted/);
    expect(await stackResources(stack)).toEqual([]);

    // The topic is not deleted by its resource; it went with its source. Everything else imported is gone, and only that.
    const topicId = `source_${ids.source}.public.orders`;
    expect(await inventory(web)).toEqual(without(before, imported.filter((id) => id !== topicId)));
    expect(await web.get(`/agents/${ids.agent}`, { schema: agentSchema })).toMatchObject({ status: "deleted" });
  });
});

describe("bulk pulumi import -f of several kinds", { timeout: ENGINE_TIMEOUT_MS }, () => {
  const env = importEnvironment("bulk");

  it("imports a tag, a source, a destination, a credential, connections and an agent at once; the code previews with no changes; destroy deletes exactly those", async () => {
    const { web, stack, project } = env;
    const tag = ((await web.post("/tags", { body: { name: "bulk-owner", description: "Bulk onboarding", type: ["sources"], created_from: "web" } })) as { id: string }).id;
    const source = ((await web.post("/sources", { body: { name: "bulk-orders", connector: "postgresql", config: PG_CONFIG, tags: [tag], created_from: "web" } })) as { id: string }).id;
    const destination = ((await web.post("/destinations", { body: { name: "bulk-warehouse", connector: "snowflake", config: SNOWFLAKE_CONFIG, created_from: "web" } })) as { id: string }).id;
    const credential = ((await web.post("/auth/client-credentials", { body: { role_ids: ["role_viewer"], created_from: "web" } })) as { client_id: string }).client_id;
    const http = ((await web.post("/agents/connections/http", { body: { name: "bulk-hooks", url: "https://hooks.example.com", headers: {}, created_from: "web" } })) as { connection_id: string })
      .connection_id;
    const llm = ((await web.post("/agents/connections/llm", { body: { name: "bulk-model", provider: "anthropic", model: "claude-sonnet", api_key: LLM_KEY, created_from: "web" } })) as {
      connection_id: string;
    }).connection_id;
    const agent = ((await web.post("/agents", { body: { name: "bulk-agent", instructions: "Summarise the day's pipeline errors.", llm_connection_id: llm, created_from: "web" }, schema: agentSchema })) as {
      job_id: string;
    }).job_id;
    // Not in the import file: destroy must leave them.
    const otherTag = ((await web.post("/tags", { body: { name: "bulk-not-imported", type: ["sources"], created_from: "web" } })) as { id: string }).id;
    const otherDestination = ((await web.post("/destinations", { body: { name: "bulk-not-imported", connector: "snowflake", config: SNOWFLAKE_CONFIG, created_from: "web" } })) as { id: string }).id;

    const resources = [
      { type: "cdc:index:Tag", name: "owner", id: tag },
      { type: "cdc:index:Source", name: "orders", id: source },
      { type: "cdc:index:Destination", name: "warehouse", id: destination },
      { type: "cdc:index:ClientCredential", name: "reader", id: credential },
      { type: "cdc:index:HttpConnection", name: "hooks", id: http },
      { type: "cdc:index:LlmConnection", name: "model", id: llm },
      { type: "cdc:index:Agent", name: "agent", id: agent },
    ];
    const file = join(project.dir, "import.json");
    await writeFile(file, JSON.stringify({ resources }, null, 2));
    // Unprotected, so the generated code carries no protect option and destroy needs no unprotect.
    const generated = await runImport(stack, ["--file", file, "--protect=false"]);
    expect(generated.result.stdout).toMatch(/= 7 imported/);
    expect(generated.code).toBe(yaml`
      resources:
        owner:
          type: cdc:Tag
          properties:
            description: Bulk onboarding
            name: bulk-owner
            type:
              - sources
        orders:
          type: cdc:Source
          properties:
            config:
              database.dbname: shop
              database.hostname.user.defined: orders-db.internal
              database.password:
                fn::secret: '********'
              database.port.user.defined: 5433
              database.user: cdc_reader
              schema.include.list: public
              table.include.list.user.defined: public.orders,public.customers
            connector: postgresql
            name: bulk-orders
            tags:
              - ${"${owner.id}"}
        warehouse:
          type: cdc:Destination
          properties:
            config:
              snowflake.database.name: ANALYTICS
              snowflake.private.key:
                fn::secret: '********'
              snowflake.schema.name: RAW
              snowflake.url.name: acme.snowflakecomputing.com
              snowflake.user.name: CDC_LOADER
            connector: snowflake
            name: bulk-warehouse
        reader:
          type: cdc:ClientCredential
          properties:
            roleIds:
              - role_viewer
        hooks:
          type: cdc:HttpConnection
          properties:
            name: bulk-hooks
            url: https://hooks.example.com
        model:
          type: cdc:LlmConnection
          properties:
            apiKey: '********'
            model: claude-sonnet
            name: bulk-model
            provider: anthropic
        agent:
          type: cdc:Agent
          properties:
            instructions: Summarise the day's pipeline errors.
            llmConnectionId: ${"${model.id}"}
            name: bulk-agent`);

    await project.add(generated.code);
    await project.declareSecret("modelApiKey");
    await stack.setConfig("modelApiKey", LLM_KEY, true);
    await project.edit("apiKey: '********'", "apiKey: ${modelApiKey}");
    const preview = await stack.preview(["--expect-no-changes"]);
    expect(preview.stdout).toMatch(/8 unchanged/);

    const before = await inventory(web);
    const destroy = await stack.destroy();
    // The seven, and the stack itself.
    expect(destroy.stdout).toMatch(/- 8 deleted/);
    expect(await inventory(web)).toEqual(without(before, [tag, source, destination, credential, http, llm, agent]));
    expect((await inventory(web)).tags).toContain(otherTag);
    expect((await inventory(web)).destinations).toContain(otherDestination);
  });
});
