import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { clientCredentialSchema, destinationConnectorSchema, sourceConnectorSchema, tagSchema } from "../../provider/client/index.js";
import { kafkaUserSchema } from "../../provider/kafka/api.js";
import { pipelineSchema, transformSchema } from "../../provider/pipelines/schemas.js";
import { CDC_CLI, runCdc } from "../support/process.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { pathWithPythonHost, pythonSdkCopy, pythonToolchain } from "../support/python.js";
import { tfInstance as instance, pgConnectionConfig, tfPostgresqlSource, tfResource as resource, tfState } from "../support/terraform-state.js";
import { ConsoleClient, apiWrites, webClient } from "../support/web.js";

// Issue 41 in plain `npm test`, with no vendor build: objects made through the API, the
// terraform.tfstate the vendor's provider (beta.24) writes for them (every attribute of its schema,
// catalogue/terraform-schema.json, unset ones null, defaults as it plans them, the password in plain
// text and listed in sensitive_attributes, as a state the vendor-backed test produced holds them),
// then `import --from-terraform` in TypeScript, YAML and Python: a preview that plans adoption only, an `up` with no
// write, an empty preview, and the passwords and the credential's secret nowhere in the program,
// the output or the stack but in its encrypted config and state.
// test/e2e/import-terraform-vendor.test.ts does the same from a real `terraform apply`.

const REPO_ROOT = resolve(__dirname, "..", "..");
const PASSWORD = "tf-engine-test-db-password";
const KAFKA_PASSWORD = "tf-engine-test-kafka-password";

describe("pulumi-cdc import --from-terraform of a state file, under the real engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let work: string;
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    if (!existsSync(CDC_CLI)) throw new Error(`${CDC_CLI} is missing: run \`npm run build\` first`);
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    work = await mkdtemp(join(tmpdir(), "pulumi-cdc-import-tfstate-"));
  });

  afterAll(async () => {
    // The emulator goes with the test: the stacks are removed, not destroyed (a destroy each would only delete its objects).
    for (const stack of stacks) await stack.dispose();
    await web?.close();
    await emulator?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  for (const lang of ["typescript", "yaml", "python"] as const) {
    it(`${lang}: adopts what the state holds with no write, and keeps its secrets in the stack's config only`, async (ctx) => {
      const py = lang === "python" ? await pythonToolchain() : undefined;
      if (py === null) return ctx.skip();
      // Each language's own objects, so that each adoption is of objects no stack holds.
      const p = { typescript: "tfe-ts", yaml: "tfe-yml", python: "tfe-py" }[lang];
      // What `terraform apply` would have made: tags, a PostgreSQL source, a destination, a transform,
      // a pipeline, a topic, a Kafka user and a client credential (the last two newer than beta.24).
      const tag = (name: string, type: string[]) => web.post("/tags", { body: { name, type }, schema: tagSchema });
      const team = [await tag(`${p}-team-0`, ["sources", "destinations", "pipelines"]), await tag(`${p}-team-1`, ["sources", "pipelines"])];
      const pgConfig = pgConnectionConfig(PASSWORD);
      const source = await web.post("/sources", { query: { wait: false }, body: { name: `${p}-orders`, connector: "postgresql", config: pgConfig, tags: [team[0]!.id] }, schema: sourceConnectorSchema });
      const destConfig = { "database.hostname.user.defined": "replica.db.internal", "database.port.user.defined": 5432, "database.database.user.defined": "replica", "connection.username": "loader", "connection.password": PASSWORD, "table.name.prefix": "public" };
      const destination = await web.post("/destinations", { query: { wait: false }, body: { name: `${p}-replica`, connector: "postgresql", config: destConfig, tags: [team[0]!.id] }, schema: destinationConnectorSchema });
      const transform = await web.post("/transforms", {
        body: { transform: "map_filter", config: { "transforms.name": `${p}-clean`, "transforms.input.topic.pattern": "public\\.orders", "transforms.output.topic.pattern": "clean.orders" }, tags: [team[1]!.id] },
        schema: transformSchema,
      });
      const ref = (c: { id?: string | null; name?: string | null; connector?: string | null }) => ({ id: c.id!, name: c.name!, connector: c.connector! });
      const pipeline = await web.post("/pipelines", {
        query: { wait: false },
        body: { name: `${p}-orders`, source: { ...ref(source), topics: ["public.orders"] }, destination: ref(destination), snapshot_new_tables: true, tags: [team[1]!.id] },
        schema: pipelineSchema,
      });
      const topicId = `source_${source.id}.public.orders`;
      const kafkaUser = await web.post("/kafka-access/kafka-users", {
        body: { username: `${p}-reader`, password: KAFKA_PASSWORD, whitelist_ips: "10.0.0.0/8", kafka_acls: [{ topic_name: "clean.", operation: "READ", resource_pattern_type: "PREFIXED", resource: "TOPIC" }] },
        schema: kafkaUserSchema,
      });
      // Its secret is in this answer only: the state keeps it, and so must the stack.
      const credential = await web.post("/auth/client-credentials", { body: { role_ids: ["role_viewer"], description: `${p} dbt reads` }, schema: clientCredentialSchema });

      // The state the vendor's provider writes for them (its attribute names, from the committed schema).
      const state = tfState([
          resource("streamkap_tag", "team", team.map((t, i) => instance("streamkap_tag", { id: t.id, name: t.name, description: null, type: [...t.type].sort(), system: false, custom: true }, i))),
          resource("streamkap_source_postgresql", "orders", [
            tfPostgresqlSource({ id: source.id, name: source.name, kc_cluster_id: "", database_password: PASSWORD, tags: [team[0]!.id] }),
          ]),
          resource("streamkap_destination_postgresql", "replica", [
            instance("streamkap_destination_postgresql", {
              id: destination.id,
              name: destination.name,
              connector: "postgresql",
              connector_status: "Active",
              kc_cluster_id: "",
              database_hostname: "replica.db.internal",
              database_port: 5432,
              database_database: "replica",
              connection_username: "loader",
              connection_password: PASSWORD,
              table_name_prefix: "public",
              tags: [team[0]!.id],
            }),
          ]),
          resource("streamkap_transform_map_filter", "clean", [
            instance("streamkap_transform_map_filter", {
              id: transform.id,
              name: `${p}-clean`,
              transform_type: "map_filter",
              connector_status: "UNKNOWN",
              deploy: false,
              transforms_input_topic_pattern: "public\\.orders",
              transforms_output_topic_pattern: "clean.orders",
              tags: [team[1]!.id],
            }),
          ]),
          resource("streamkap_pipeline", "orders", [
            instance("streamkap_pipeline", {
              id: pipeline.id,
              name: `${p}-orders`,
              snapshot_new_tables: true,
              source: { ...ref(source), topics: ["public.orders"] },
              destination: ref(destination),
              transforms: [],
              topic_auto_discovery_transforms: [],
              tags: [team[1]!.id],
            }),
          ]),
          // At the platform's partitions and with no tags: declared all the same, so adopted.
          resource("streamkap_topic", "orders", [instance("streamkap_topic", { topic_id: topicId, partition_count: 3, tags: null })]),
          resource("streamkap_kafka_user", "reader", [
            instance("streamkap_kafka_user", {
              id: kafkaUser.username,
              username: kafkaUser.username,
              password: KAFKA_PASSWORD,
              whitelist_ips: "10.0.0.0/8",
              // A block list in the vendor's schema (docs/resources/kafka_user.md), held as a list of objects.
              kafka_acls: [{ topic_name: "clean.", operation: "READ", resource_pattern_type: "PREFIXED", resource: "TOPIC" }],
              is_create_schema_registry: false,
              kafka_proxy_endpoint: kafkaUser.kafka_proxy_endpoint,
              schema_proxy_endpoint: kafkaUser.schema_proxy_endpoint,
            }),
          ]),
          resource("streamkap_client_credential", "dbt", [
            instance("streamkap_client_credential", {
              id: credential.client_id,
              client_id: credential.client_id,
              secret: credential.secret,
              role_ids: ["role_viewer"],
              description: `${p} dbt reads`,
              created_at: String(credential.created_at),
            }),
          ]),
      ]);
      const stateFile = join(work, `terraform-${lang}.tfstate`);
      await writeFile(stateFile, state);

      // The program (no API call), then, once its stack exists, again with the secret set in the stack's config (on stdin).
      const program = join(work, `program-${lang}`);
      const stackName = p.replace(/-/g, "");
      emulator.resetStats();
      const first = await runCdc(["import", "--from-terraform", stateFile, "--out", program, "--lang", lang], { cwd: work });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain("9 streamkap_* instance(s), 9 adopted");
      if (lang === "typescript") await symlink(join(REPO_ROOT, "node_modules"), join(program, "node_modules"), "dir");
      const path = py ? await pathWithPythonHost() : process.env.PATH;
      const stack = await TestStack.create(program, { stackName, env: { PATH: `${join(REPO_ROOT, "bin")}:${path}`, ...py?.pipEnv } });
      stacks.push(stack);
      const imported = await runCdc(["import", "--from-terraform", stateFile, "--out", program, "--lang", lang, "--force", "--secrets-stack", stackName], { cwd: work, env: stack.environment() });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain(`set in stack ${stackName}'s config as secrets`);
      expect(imported.stdout).not.toMatch(/^\s*pulumi config set --secret \w/m);
      expect(apiWrites(emulator)).toEqual({});
      if (py) {
        // pip builds a local project in place: the program's SDK requirement points at a copy, not the checkout.
        const requirements = join(program, "requirements.txt");
        const lines = (await readFile(requirements, "utf8")).split("\n");
        const sdk = await pythonSdkCopy(join(work, "sdk-python"));
        await writeFile(requirements, lines.map((l) => (/generated\/sdks\/python\/?$/.test(l.trim()) ? sdk : l)).join("\n"));
      }
      const index = await readFile(join(program, { typescript: "index.ts", yaml: "Pulumi.yaml", python: "__main__.py" }[lang]), "utf8");
      expect(index).toContain({ typescript: "source: ordersSource,", yaml: "${ordersSource", python: "id=orders_source.id," }[lang]);
      const idWritten = (id: string) => new RegExp(`(adoptId: "?|adopt_id="|topicId: "?|topic_id=")${id.replace(/\./g, "\\.")}"?,?\\n`);
      for (const id of [topicId, credential.client_id, `${p}-reader`]) expect(index).toMatch(idWritten(id));
      const secrets = [PASSWORD, KAFKA_PASSWORD, credential.secret!];
      for (const text of [index, first.stdout, imported.stdout, imported.stderr, await readFile(join(program, `Pulumi.${stackName}.yaml`), "utf8"), await readFile(join(program, "terraform-handover.tf"), "utf8")]) {
        for (const secret of secrets) expect(text).not.toContain(secret);
      }

      // Adoption under the engine: planned, done with no write, then nothing to change.
      await stack.useApi(emulator);
      const preview = await stack.preview();
      expect(preview.stdout).toMatch(/\+ 10 to create/);
      const up = await stack.up();
      expect(up.stdout).toMatch(/\+ 10 created/);
      expect(apiWrites(emulator)).toEqual({});
      await stack.preview(["--expect-no-changes"]);
      const exported = await stack.exportState();
      for (const secret of secrets) expect(exported).not.toContain(secret);
      // Encrypted, and there: the adopted credential's secret is the stack's, for whoever used Terraform's.
      const shown = (await stack.run(["stack", "export", "--show-secrets", "--stack", stackName])).stdout;
      expect(shown).toContain(credential.secret);
    });
  }
});
