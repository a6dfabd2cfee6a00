import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { IMPORT_USAGE, kindOf, parseImportArgs } from "../../../cli/import/args.js";
import { countsText, importFile, programFiles, projectName, secretCommands, wrap } from "../../../cli/import/files.js";
import { buildProgram, connectorSettings, Reference, Secret, type Ref, type Resource } from "../../../cli/import/model.js";
import { assignIdentifiers, baseIdentifier, camelCase, globToRegExp, idHash, secretConfigName } from "../../../cli/import/names.js";
import type { Tenant } from "../../../cli/import/tenant.js";
import { renderTypeScript, tsString } from "../../../cli/import/typescript.js";
import { renderYaml, yamlString } from "../../../cli/import/yaml.js";
import { pyString, pythonVariables, renderPython, snakeCase } from "../../../cli/import/python.js";
import { parsePython } from "../../support/python.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PULUMI_PYTHON_REQUIREMENT } from "../../../cli/import/files.js";
import { parseCommandLine, USAGE, UsageError } from "../../../cli/args.js";

// The pure parts of `pulumi-cdc import`: identifiers, the program model built from a tenant (as
// the API shows it), and its TypeScript and YAML renderings. js-yaml comes with @pulumi/pulumi.

/** js-yaml, which @pulumi/pulumi brings (and types nowhere): to read the YAML program back. */
const { load } = createRequire(__filename)("js-yaml") as { load(text: string): unknown };

const PRODUCTION = "670e5bab0d119c0d1f8cda9d";

/** A tenant as the API lists it: strings for every config value, secrets masked, defaults filled in. */
function tenant(): Tenant {
  return {
    Tag: [
      { id: PRODUCTION, name: "Production", type: ["environment"], system: true, custom: false },
      { id: "t-pii", name: "pii", description: "personal data", type: ["sources", "destinations"], system: false, custom: true },
      { id: "t-fin", name: "finance", description: null, type: ["sources"], system: false, custom: true },
    ],
    Source: [
      {
        id: "s-orders",
        name: "orders",
        connector: "postgresql",
        connector_status: "Paused",
        config: {
          "database.hostname.user.defined": "db.internal",
          "database.hostname": "db.internal",
          "database.port.user.defined": "5432",
          "database.user": "cdc",
          "database.password": "********",
          "database.dbname": "shop",
          "schema.include.list": "public",
          "table.include.list.user.defined": "public.orders,public.customers",
          "database.sslmode": "require",
          "snapshot.read.only.user.defined": "No",
        },
        topic_ids: ["source_s-orders.public.orders"],
        tags: [{ id: "t-pii" }, { id: PRODUCTION }],
      } as never,
      {
        id: "s-odd",
        name: "odd port",
        connector: "postgresql",
        connector_status: "Active",
        config: {
          "database.hostname.user.defined": "db",
          "database.port.user.defined": "99999",
          "database.user": "u",
          "database.password": "********",
          "database.dbname": "d",
          "schema.include.list": "public",
          "table.include.list.user.defined": "orders",
        },
      },
    ],
    Destination: [
      {
        id: "d-wh",
        name: "warehouse",
        connector: "snowflake",
        connector_status: "Stopped",
        config: {
          "snowflake.url.name": "acme.snowflakecomputing.com",
          "snowflake.user.name": "LOADER",
          "snowflake.private.key": "********",
          "snowflake.database.name": "ANALYTICS",
          "snowflake.schema.name": "RAW",
          "auto.qa.dedupe.table.mapping": { "db.orders": "db.orders_dedupe" },
        },
      },
      { id: "d-new", name: "future", connector: "quantumdb", config: { "quantum.host": "q.internal", "quantum.token": "********", "quantum.qubits": "8" } },
    ],
    Transform: [
      {
        id: "tr-1",
        name: "clean",
        transform_type: "map_filter",
        config: { "transforms.name": "clean", "transforms.language": "JavaScript", "transforms.input.topic.pattern": "public\\.(.*)", "transforms.output.topic.pattern": "clean.$1" },
        implementation: { language: "JAVASCRIPT", value_transform: "function _stk(r) {\n  return `${r}`;\n}", key_transform: null },
        topic_ids: [],
        topics: [],
        tags: [],
        running: true,
      },
    ],
    Pipeline: [
      {
        id: "p-1",
        name: "orders-to-wh",
        snapshot_new_tables: true,
        source: { id: "s-orders", name: "orders", connector: "postgresql", topics: ["source_s-orders.public.orders"] },
        destination: { id: "d-wh", name: "warehouse", connector: "snowflake" },
        transforms: [{ id: "tr-1", name: "clean", start_time: null, topic_id: "transform_tr-1_1.clean.orders", topic: "clean.orders" }],
        tags: ["t-fin"],
      },
    ],
    HttpConnection: [{ connection_id: "h-1", name: "tickets", url: "https://t.example.com", headers: { Authorization: "********" } }],
    LlmConnection: [{ connection_id: "l-1", name: "gpt", provider: "openai", model: "gpt-4o" }],
    Agent: [
      { job_id: "a-1", name: "triage", instructions: "Open tickets.", llm_connection_id: "l-1", http_connection_ids: ["h-1", "h-gone"], status: "draft", flags: [] },
    ],
    ClientCredential: [{ client_id: "cdc-1", roles: [{ id: "role_viewer", key: "viewer" }], description: "dbt", service_id: null, created_from: "web" } as never],
    Topic: [
      { id: "source_s-orders.public.orders", name: "public.orders", partitions: 6, tags: [], owner: { kind: "source", id: "s-orders" } },
      { id: "source_s-orders.public.customers", name: "public.customers", partitions: 3, tags: [], owner: { kind: "source", id: "s-orders" } },
    ],
    TopicDestination: [],
    DestinationSmtChain: [],
    KafkaUser: [
      {
        username: "dbt-reader",
        whitelist_ips: "10.0.0.0/8",
        kafka_acls: [{ topic_name: "orders", operation: "READ", resource_pattern_type: "PREFIXED", resource: "TOPIC" }],
        is_create_schema_registry: false,
        kafka_proxy_endpoint: "kafka.example:9092",
        schema_proxy_endpoint: "",
      },
    ],
    notes: [],
  };
}

const of = (resources: Resource[], ident: string) => resources.find((r) => r.ident === ident)!;
/** References as the model holds them, in its inputs. */
const refs = (...list: Ref[]) => list.map((r) => new Reference(r));

describe("identifiers", () => {
  it("come from names: camelCase words, the kind's suffix, a prefix for names that start with a digit", () => {
    expect(camelCase("orders-db.prod")).toBe("ordersDbProd");
    expect(camelCase("ORDERS_DB")).toBe("ordersDb");
    expect(camelCase("Café Süd")).toBe("cafeSud");
    expect(baseIdentifier("orders", "Source")).toBe("ordersSource");
    expect(baseIdentifier("2024 orders", "Tag")).toBe("tag2024Orders");
    expect(baseIdentifier("!!!", "Agent")).toBe("agent");
  });

  it("are unique and stable: names that collide each get a hash of their id, whatever the order and the other objects", () => {
    const a = { id: "a1", name: "orders-db", suffix: "Source" };
    const b = { id: "b2", name: "orders_db", suffix: "Source" };
    const c = { id: "c3", name: "orders", suffix: "Destination" };
    const one = assignIdentifiers([a, b, c]);
    expect(one.get("Source\0a1")).toBe(`ordersDbSource_${idHash("a1")}`);
    expect(one.get("Source\0b2")).toBe(`ordersDbSource_${idHash("b2")}`);
    expect(one.get("Destination\0c3")).toBe("ordersDestination");
    expect(assignIdentifiers([c, b, a])).toEqual(one);
    // A helper's name is taken: a source named "postgresql" does not shadow postgresqlSource.
    expect(assignIdentifiers([{ id: "x", name: "postgresql", suffix: "Source" }], new Set(["postgresqlSource"])).get("Source\0x")).toBe(`postgresqlSource_${idHash("x")}`);
  });

  it("secret config names are per resource and unique; globs match whole names", () => {
    const used = new Set<string>();
    expect(secretConfigName("ordersSource", "databasePassword", used)).toBe("ordersSourceDatabasePassword");
    expect(secretConfigName("ordersSource", "database.password", used)).toBe("ordersSourceDatabasePassword2");
    expect(globToRegExp("orders-*").test("orders-eu")).toBe(true);
    expect(globToRegExp("orders-*").test("my-orders-eu")).toBe(false);
    expect(globToRegExp("db?").test("db1")).toBe(true);
    expect(globToRegExp("a.b").test("axb")).toBe(false);
  });
});

describe("the program model", () => {
  const model = buildProgram(tenant(), { clientId: "cdc-1" });

  it("declares what is referred to first, each kind sorted by name, system tags and credentials left out", () => {
    expect(model.resources.map((r) => r.ident)).toEqual([
      "financeTag",
      "piiTag",
      "gptLlmConnection",
      "ticketsHttpConnection",
      "triageAgent",
      "oddPortSource",
      "ordersSource",
      "futureDestination",
      "warehouseDestination",
      "cleanTransform",
      "ordersToWhPipeline",
      "publicOrdersTopic",
      "dbtReaderKafkaUser",
    ]);
    expect(model.credentials).toEqual([{ clientId: "cdc-1", roles: ["viewer"], description: "dbt", serviceId: "", createdFrom: "web", used: true }]);
  });

  it("adopts Kafka users, their password read from config (the API never shows it)", () => {
    const user = model.resources.find((r) => r.kind === "KafkaUser")!;
    expect(user.inputs).toEqual({
      username: "dbt-reader",
      password: expect.any(Secret),
      whitelistIps: ["10.0.0.0/8"],
      kafkaAcls: [{ topicName: "orders", operation: "READ", resourcePatternType: "PREFIXED", resource: "TOPIC" }],
      adoptId: "dbt-reader",
    });
    expect((user.inputs.password as Secret).name).toBe("dbtReaderKafkaUserPassword");
  });

  it("writes only values away from the defaults, the include lists as tables, masked secrets from config, the status and tags", () => {
    const orders = of(model.resources, "ordersSource");
    expect(orders.settings).toMatchObject({ form: "tables", fn: "postgresqlTables", listProperty: "tables", list: ["public.orders", "public.customers"] });
    const props = Object.fromEntries(orders.settings!.settings.map((s) => [s.property, s.value]));
    // The port and sslmode are the defaults; the plain hostname is the platform's copy.
    expect(props).toEqual({ databaseHostname: "db.internal", databaseUser: "cdc", databasePassword: expect.any(Secret), databaseDbname: "shop", snapshotReadOnly: "No" });
    expect((props.databasePassword as Secret).name).toBe("ordersSourceDatabasePassword");
    expect(orders.inputs.desiredState).toBe("paused");
    expect(orders.inputs.tags).toEqual(refs({ ident: "piiTag" }, { id: PRODUCTION, note: 'the platform\'s own tag "Production"' }));
    const wh = of(model.resources, "warehouseDestination");
    expect(wh.settings!.form).toBe("helper");
    expect(wh.inputs.desiredState).toBe("stopped");
  });

  it("writes raw config with why for a connector the catalogue lacks, and notes a value pulumi-cdc's check refuses", () => {
    const future = of(model.resources, "futureDestination");
    expect(future.settings).toMatchObject({ form: "raw", why: expect.stringContaining('"quantumdb" is not in pulumi-cdc\'s catalogue') });
    expect(Object.fromEntries(future.settings!.settings.map((s) => [s.key, s.value instanceof Secret ? s.value.name : s.value]))).toEqual({
      "quantum.host": "q.internal",
      "quantum.token": "futureDestinationQuantumToken",
      "quantum.qubits": "8",
    });
    const odd = of(model.resources, "oddPortSource");
    expect(odd.notes).toEqual([expect.stringMatching(/check refuses config\["database.port.user.defined"\].*between 1 and 65535/)]);
    const slash = buildProgram({ ...tenant(), Tag: [{ id: "t-x", name: "team/data", type: ["general"] }] }).resources[0]!;
    expect(slash.notes).toEqual([expect.stringMatching(/^pulumi-cdc's check refuses its name "team\/data": it may hold letters, digits/)]);
    expect(model.warnings).toEqual(expect.arrayContaining([expect.stringContaining('source "odd port" (oddPortSource)')]));
    // A value the helper's type cannot take: raw config, saying which.
    const notes: string[] = [];
    const s = connectorSettings("source", "postgresql", { "database.port.user.defined": "five", "database.sslmode": "require" }, false, (k) => new Secret(k, k), notes);
    expect(s).toMatchObject({ form: "raw", why: expect.stringContaining('config["database.port.user.defined"] is "five", which the typed helper\'s databasePort (integer) cannot take') });
  });

  it("references other resources as variables, and ids it cannot with why; a transform's code without the platform's nulls", () => {
    const p = of(model.resources, "ordersToWhPipeline");
    expect(p.inputs).toMatchObject({
      source: { id: new Reference({ ident: "ordersSource" }) },
      destination: { id: new Reference({ ident: "warehouseDestination" }) },
      sourceTopics: ["public.orders"],
      transforms: [{ id: new Reference({ ident: "cleanTransform" }), topics: ["clean.orders"] }],
      snapshotNewTables: true,
      tags: refs({ ident: "financeTag" }),
    });
    const agent = of(model.resources, "triageAgent");
    expect(agent.inputs).toMatchObject({ llmConnectionId: new Reference({ ident: "gptLlmConnection" }), deployed: false, httpConnectionIds: refs({ ident: "ticketsHttpConnection" }, { id: "h-gone", note: "HTTP connection: not in the tenant's listings" }) });
    const t = of(model.resources, "cleanTransform");
    expect(t.inputs).toMatchObject({ deploy: true, implementation: { language: "JAVASCRIPT", value_transform: expect.any(String) } });
    expect(t.inputs.implementation).not.toHaveProperty("key_transform");
    const topic = of(model.resources, "publicOrdersTopic");
    expect(topic).toMatchObject({ inputs: { topicId: "source_s-orders.public.orders", partitionCount: 6 }, dependsOn: [{ ident: "ordersSource" }] });
  });

  it("filters: --kind, --name globs, --tag (the tag itself too), --skip-managed; references to what is left out say why", () => {
    const sourcesOnly = buildProgram(tenant(), { kinds: new Set(["Source"]) });
    expect(sourcesOnly.resources.map((r) => r.ident)).toEqual(["oddPortSource", "ordersSource"]);
    expect((of(sourcesOnly.resources, "ordersSource").inputs.tags as Reference[])[1]).toEqual(new Reference({ id: "t-pii", note: 'tag "pii": not imported: --kind leaves it out' }));
    expect(sourcesOnly.credentials).toEqual([]);
    expect(buildProgram(tenant(), { names: ["order*"] }).resources.map((r) => r.ident)).toEqual(["ordersSource", "ordersToWhPipeline"]);
    expect(buildProgram(tenant(), { tags: ["pii"] }).resources.map((r) => r.ident)).toEqual(["piiTag", "ordersSource"]);
    const managed = buildProgram(tenant(), { managed: new Map([["Source", new Set(["s-orders"])]]), managedBy: "prod" });
    expect(managed.resources.some((r) => r.ident === "ordersSource")).toBe(false);
    expect(of(managed.resources, "ordersToWhPipeline").inputs.source).toEqual({ id: new Reference({ id: "s-orders", note: 'source "orders": managed by stack prod' }) });
  });
});

describe("rendering", () => {
  const model = buildProgram(tenant(), { clientId: "cdc-1" });

  it("TypeScript: helpers and classes imported, adoptId on each, secrets from config, comments for raw config and left-out ids; the same bytes every time", () => {
    const ts = renderTypeScript(model, ["header"]);
    expect(renderTypeScript(buildProgram(tenant(), { clientId: "cdc-1" }), ["header"])).toBe(ts);
    expect(ts).toMatch(/^import \{ [^}]*\bmapFilterTransform\b[^}]*\bpostgresqlTables\b[^}]*\bsnowflakeDestination\b[^}]*\} from "pulumi-cdc";$/m);
    expect(ts).toContain('const ordersSource = new Source("ordersSource", {\n  name: "orders",\n  ...postgresqlTables({');
    expect(ts).toContain('    databasePassword: config.requireSecret("ordersSourceDatabasePassword"),');
    expect(ts).toContain('    tables: ["public.orders", "public.customers"],');
    expect(ts).toContain('"670e5bab0d119c0d1f8cda9d" /* the platform\'s own tag "Production" */');
    expect(ts).toMatch(/\/\/ the destination connector "quantumdb" is not in pulumi-cdc's catalogue[^\n]*\n  connector: "quantumdb",\n  config: \{/);
    expect(ts).toContain("value_transform: `function _stk(r) {\n  return `${r}`;\n}`".replace("`${r}`", "\\`\\${r}\\`"));
    expect(ts).toContain("}, { dependsOn: [ordersSource] });");
    expect(ts).toContain("//   cdc-1; roles viewer; description \"dbt\"; created from web (the credential this import read the tenant with)");
    expect((ts.match(/adoptId: /g) ?? []).length).toBe(model.resources.length - 1);
  });

  it("YAML: the plugin's tokens and the core's inputs, ids as ${x.id}, secrets as secret config, a literal ${ escaped", () => {
    const text = renderYaml(model, "acme", ["header"]);
    const doc = load(text) as { name: string; runtime: string; config: Record<string, { type: string; secret: boolean }>; resources: Record<string, { type: string; properties: Record<string, unknown>; options?: { dependsOn: string[] } }> };
    expect(doc).toMatchObject({ name: "acme", runtime: "yaml" });
    expect(doc.config.ordersSourceDatabasePassword).toEqual({ type: "string", secret: true });
    expect(doc.resources.ordersSource).toEqual({
      type: "cdc:index:Source",
      properties: {
        name: "orders",
        connector: "postgresql",
        config: {
          "database.hostname.user.defined": "db.internal",
          "database.user": "cdc",
          "database.password": "${ordersSourceDatabasePassword}",
          "database.dbname": "shop",
          "schema.include.list": "public",
          "table.include.list.user.defined": "public.orders,public.customers",
          "snapshot.read.only.user.defined": "No",
        },
        desiredState: "paused",
        tags: ["${piiTag.id}", PRODUCTION],
        adoptId: "s-orders",
      },
    });
    expect(doc.resources.ordersToWhPipeline!.properties).toMatchObject({ source: { id: "${ordersSource.id}" }, transforms: [{ id: "${cleanTransform.id}", topics: ["clean.orders"] }] });
    expect(doc.resources.triageAgent!.properties).toMatchObject({ llmConnectionId: "${gptLlmConnection.id}", httpConnectionIds: ["${ticketsHttpConnection.id}", "h-gone"], deployed: false });
    expect(doc.resources.publicOrdersTopic!.options).toEqual({ dependsOn: ["${ordersSource}"] });
    expect((doc.resources.cleanTransform!.properties.implementation as Record<string, string>).value_transform).toBe("function _stk(r) {\n  return `$${r}`;\n}");
    expect(yamlString("plain-value")).toBe("plain-value");
    expect(yamlString("true")).toBe('"true"');
    expect(yamlString("a ${b}")).toBe('"a $${b}"');
    expect(tsString("a\nb`${c}")).toBe("`a\nb\\`\\${c}`");
  });

  it("Python: cdc.<Kind> on the plugin's inputs, snake_case variables and keywords, adopt_id on each, secrets from config; parses; the same bytes every time", () => {
    const py = renderPython(model, ["header"]);
    expect(renderPython(buildProgram(tenant(), { clientId: "cdc-1" }), ["header"])).toBe(py);
    // Python's own parser reads it (a syntax error exits non-zero and fails the test).
    parsePython(py);
    expect(py).toMatch(/^# header\n\nimport pulumi\nimport pulumi_cdc as cdc\n/);
    expect(py).toContain('config = pulumi.Config()');
    expect(py).toContain(
      [
        'orders_source = cdc.Source(',
        '    "ordersSource",',
        '    name="orders",',
        '    connector="postgresql",',
        '    config={',
        '        "database.hostname.user.defined": "db.internal",',
        '        "database.user": "cdc",',
        '        "database.password": config.require_secret("ordersSourceDatabasePassword"),',
      ].join("\n"),
    );
    expect(py).toContain('    desired_state="paused",\n');
    expect(py).toContain(`    tags=[\n        pii_tag.id,\n        "${PRODUCTION}",  # the platform's own tag "Production"\n    ],\n`);
    expect(py).toContain('    source=cdc.ConnectorRefArgs(\n        id=orders_source.id,\n    ),');
    expect(py).toMatch(/cdc\.PipelineTransformArgs\(\n +id=clean_transform\.id,\n +topics=\["clean\.orders"\],/);
    expect(py).toContain("    llm_connection_id=gpt_llm_connection.id,");
    expect(py).toContain('    http_connection_ids=[\n        tickets_http_connection.id,\n        "h-gone",  # HTTP connection: not in the tenant\'s listings\n    ],');
    expect(py).toContain("    deployed=False,");
    expect(py).toContain("    opts=pulumi.ResourceOptions(depends_on=[orders_source]),");
    expect(py).toContain('"value_transform": "function _stk(r) {\\n  return `${r}`;\\n}",');
    expect(py).toMatch(/# the destination connector "quantumdb" is not in pulumi-cdc's catalogue[^\n]*\n[a-z_]+ = cdc\.Destination\(/);
    expect(py).toContain('#   cdc-1; roles viewer; description "dbt"; created from web (the credential this import read the tenant with)');
    // adopt_id on every resource but the topic, which the platform makes (as in TypeScript and YAML).
    expect((py.match(/^    adopt_id="/gm) ?? []).length).toBe(model.resources.filter((r) => r.kind !== "Topic").length);
    expect((py.match(/^[a-z0-9_]+ = cdc\.[A-Za-z]+\($/gm) ?? []).length).toBe(model.resources.length);
    expect(snakeCase("ordersDbSource_1a2b3c")).toBe("orders_db_source_1a2b3c");
    expect(snakeCase("replaceNullWithDefault")).toBe("replace_null_with_default");
    expect([...pythonVariables(["aBTag", "aBTag_x", "import"]).values()]).toEqual(["a_b_tag", "a_b_tag_x", "import_"]);
    expect(pyString('a"\\\n\u00e9\u{1F600}')).toBe('"a\\"\\\\\\n\\xe9\\U0001f600"');
  });

  it("Python files: Pulumi.yaml on the python runtime with a venv, __main__.py, requirements.txt with the SDK's path, the README on installing it", () => {
    const files = programFiles(model, { lang: "python", project: "acme", pythonSdk: "../../generated/sdks/python" });
    expect([...files.keys()]).toEqual(["Pulumi.yaml", "__main__.py", "requirements.txt", "README.md"]);
    expect(files.get("Pulumi.yaml")).toMatch(/^name: acme\nruntime:\n  name: python\n  options:\n(    #.*\n)?    virtualenv: venv\n/);
    const reqs = files.get("requirements.txt")!.split("\n").filter((l) => l !== "" && !l.startsWith("#"));
    expect(reqs).toEqual([PULUMI_PYTHON_REQUIREMENT, "../../generated/sdks/python"]);
    const pinned = /CDC_PULUMI_VERSION=(\S+)/.exec(readFileSync(join(__dirname, "..", "..", "..", "scripts", "toolchain.sh"), "utf8"))![1]!;
    expect(PULUMI_PYTHON_REQUIREMENT.startsWith(`pulumi>=${pinned},`)).toBe(true);
    const noSdk = programFiles(model, { lang: "python", project: "acme" });
    expect(noSdk.get("requirements.txt")!.split("\n").filter((l) => l !== "" && !l.startsWith("#"))).toEqual([PULUMI_PYTHON_REQUIREMENT]);
    const readme = files.get("README.md")!;
    expect(readme).toContain("`__main__.py`");
    expect(readme).toMatch(/Outside that repository[\s\S]*generated\/sdks\/python/);
    for (const line of secretCommands(model)) expect(readme).toContain(line);
  });

  it("files: package.json, tsconfig.json, Pulumi.yaml, README with the secret commands, the import file; words wrapped", () => {
    const files = programFiles(model, { lang: "typescript", project: "acme", importFile: "import.json" });
    expect([...files.keys()]).toEqual(["Pulumi.yaml", "index.ts", "package.json", "tsconfig.json", "README.md"]);
    expect(JSON.parse(files.get("package.json")!)).toMatchObject({ name: "acme", main: "index.ts", dependencies: { "pulumi-cdc": expect.stringMatching(/^\^\d/) } });
    expect(files.get("Pulumi.yaml")).toMatch(/^name: acme\nruntime:\n  name: nodejs\n/);
    const readme = files.get("README.md")!;
    for (const line of secretCommands(model)) expect(readme).toContain(line);
    expect(readme).toContain("`import.json` lists every object for `pulumi import -f`");
    expect(JSON.parse(importFile(model)).resources[0]).toEqual({ type: "cdc:index:Tag", name: "financeTag", id: "t-fin" });
    expect([...programFiles(model, { lang: "yaml", project: "acme" }).keys()]).toEqual(["Pulumi.yaml", "README.md"]);
    expect(countsText(model)).toBe("2 tags, 1 LLM connection, 1 HTTP connection, 1 agent, 2 sources, 2 destinations, 1 transform, 1 pipeline, 1 topic and 1 Kafka user");
    expect(projectName("my tenant!")).toBe("my-tenant");
    expect(wrap("a b c", 3)).toEqual(["a b", "c"]);
  });
});

describe("SMT chains", () => {
  const instance = (over: Record<string, unknown>) => ({ kind: "typed", alias: "X1", schema_version: 1, codec_version: 1, enabled: true, configured_secret_paths: [], predicate: null, ...over });
  /** The fixture's tenant with a chain on the warehouse (as the API reads it: defaults materialized) and one pulumi-cdc cannot manage on the future destination. */
  function withChains(): Tenant {
    const t = tenant();
    t.DestinationSmtChain = [
      {
        destinationId: "d-wh",
        chain: {
          revision: "r1",
          applicationStatus: "applied",
          transforms: [
            instance({
              id: "i-mask",
              type: "mask_field",
              name: "Mask email",
              enabled: false,
              config: { fields_include: ["orders.email"], fields_exclude: [], mask_function: "SHA256_TRUNCATE", mask_char: "*", mask_fixed_value: "***", replace_null_with_default: true },
              configured_secret_paths: ["/mask_salt"],
            }),
            instance({ id: "i-route", type: "regex_router", name: "Route orders", config: { regex: "(.*)_orders", replacement: "$1" } }),
          ] as never,
        },
      },
      { destinationId: "d-new", chain: { revision: "r2", applicationStatus: "applied", transforms: [{ kind: "opaque", id: "i-o", alias: "Custom1", name: "legacy", enabled: true, reason: "a class outside the catalogue" }] } },
    ];
    return t;
  }
  const model = buildProgram(withChains());
  const chain = of(model.resources, "warehouseSmtChain");

  it("one resource per destination's chain, after the destinations, keyed by the destination's id, entries in the SDK's form with a held salt as the mask", () => {
    const kinds = model.resources.map((r) => r.kind);
    expect(kinds.indexOf("DestinationSmtChain")).toBe(kinds.lastIndexOf("Destination") + 1);
    expect(chain).toMatchObject({ id: "d-wh", inputs: { destination: new Reference({ ident: "warehouseDestination" }) } });
    // Defaults and enabled: true left out, as a person writes the program.
    expect(chain.inputs.transforms).toEqual([
      { type: "mask_field", name: "Mask email", enabled: false, fieldsInclude: ["orders.email"], maskSalt: "********" },
      { type: "regex_router", name: "Route orders", regex: "(.*)_orders", replacement: "$1" },
    ]);
    expect(model.secrets).not.toContainEqual(expect.objectContaining({ what: expect.stringContaining("mask") }));
    expect(chain.notes).toEqual([expect.stringMatching(/^transforms\[0\]\.maskSalt of "Mask email" is "\*{8}": it keeps the secret the platform holds/)]);
  });

  it("a chain holding an instance pulumi-cdc cannot manage is not written, and said why", () => {
    expect(model.resources.filter((r) => r.kind === "DestinationSmtChain").map((r) => r.id)).toEqual(["d-wh"]);
    expect(model.warnings).toContainEqual(expect.stringMatching(/^SMT chain of destination "future" \(d-new\): not imported, it holds an instance pulumi-cdc cannot manage: "legacy" \(Custom1\) is opaque/));
  });

  it("follows its destination's name and tags in the filters; --kind smt-chains alone refers to the destination by id", () => {
    expect(buildProgram(withChains(), { names: ["ware*"] }).resources.map((r) => r.ident)).toEqual(["warehouseDestination", "warehouseSmtChain"]);
    expect(buildProgram(withChains(), { tags: ["pii"] }).resources.map((r) => r.ident)).not.toContain("warehouseSmtChain");
    const alone = buildProgram(withChains(), { kinds: new Set(["DestinationSmtChain"]) });
    expect(alone.resources.map((r) => r.ident)).toEqual(["warehouseSmtChain"]);
    expect(alone.resources[0]!.inputs.destination).toEqual(new Reference({ id: "d-wh", note: 'destination "warehouse": not imported: --kind leaves it out' }));
  });

  it("renders in TypeScript and YAML as the same entries, and lists the chain in the import file by its destination's id", () => {
    const ts = renderTypeScript(model, []);
    expect(ts).toMatch(/^import \{ [^}]*\bDestinationSmtChain\b[^}]*\} from "pulumi-cdc";$/m);
    expect(ts).toContain(
      [
        'const warehouseSmtChain = new DestinationSmtChain("warehouseSmtChain", {',
        "  destination: warehouseDestination,",
        "  transforms: [",
        "    {",
        '      type: "mask_field",',
        '      name: "Mask email",',
        "      enabled: false,",
        '      fieldsInclude: ["orders.email"],',
        '      maskSalt: "********",',
        "    },",
        '    { type: "regex_router", name: "Route orders", regex: "(.*)_orders", replacement: "$1" },',
        "  ],",
        "});",
      ].join("\n"),
    );
    const doc = load(renderYaml(model, "p", [])) as { resources: Record<string, { type: string; properties: Record<string, unknown> }> };
    expect(doc.resources.warehouseSmtChain).toEqual({ type: "cdc:index:DestinationSmtChain", properties: { destination: "${warehouseDestination.id}", transforms: chain.inputs.transforms } });
    expect(JSON.parse(importFile(model)).resources).toContainEqual({ type: "cdc:index:DestinationSmtChain", name: "warehouseSmtChain", id: "d-wh" });
    expect(countsText(model)).toContain("1 SMT chain");
  });
});

describe("the command line", () => {
  it("pulumi-cdc import --help documents every flag; the command list names import", () => {
    for (const flag of ["out", "force", "kind", "name", "tag", "stack", "skip-managed", "lang", "project", "pulumi-import-file", "raw-config", "cwd", "help"]) {
      expect(IMPORT_USAGE, flag).toContain(`--${flag}`);
    }
    expect(parseCommandLine(["import", "--help"])).toEqual({ command: "help", usage: IMPORT_USAGE });
    expect(parseCommandLine(["help", "import"])).toEqual({ command: "help", usage: IMPORT_USAGE });
    expect(USAGE).toMatch(/^ {2}import {4}write a Pulumi program that adopts an existing tenant's objects/m);
  });

  it("parses every flag; kinds in any spelling; bad input is a usage error", () => {
    const cmd = parseImportArgs(["-o", "out", "-k", "sources,Destination", "--kind", "http-connection", "-n", "a*", "-t", "pii", "-s", "prod", "--skip-managed", "--lang", "yaml", "--project", "p", "--pulumi-import-file", "f.json", "--raw-config", "legacy-*", "--force", "-C", "dir"]);
    expect(cmd).toEqual({
      command: "import",
      options: {
        out: "out",
        force: true,
        kinds: new Set(["Source", "Destination", "HttpConnection"]),
        names: ["a*"],
        tags: ["pii"],
        stack: "prod",
        skipManaged: true,
        lang: "yaml",
        project: "p",
        importFile: "f.json",
        rawConfig: ["legacy-*"],
        cwd: "dir",
      },
    });
    expect(kindOf("LlmConnections")).toBe("LlmConnection");
    expect(kindOf("client_credential")).toBe("ClientCredential");
    expect(kindOf("smt_chain")).toBe("DestinationSmtChain");
    expect(parseImportArgs(["--help"])).toMatchObject({ command: "help" });
    expect(() => parseImportArgs(["--out", "x", "--kind", "sourcez"])).toThrow(UsageError);
    expect(() => parseImportArgs(["--out", "x", "--kind", "sourcez"])).toThrow("unknown --kind 'sourcez': the kinds are tags, llm-connections, http-connections, agents, sources, destinations, smt-chains, transforms, pipelines, topics, topic-destinations, client-credentials");
    expect(() => parseImportArgs([])).toThrow(/--out <dir> is required/);
    expect(() => parseImportArgs(["--out", "x", "--skip-managed"])).toThrow(/--skip-managed needs --stack/);
    expect(() => parseImportArgs(["--out", "x", "--lang", "go"])).toThrow(/unknown --lang 'go'/);
    expect(() => parseImportArgs(["--out", "x", "--bogus"])).toThrow(/Unknown option '--bogus'/);
  });
});
