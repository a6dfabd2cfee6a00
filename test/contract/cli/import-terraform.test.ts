import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseImportArgs, type ImportOptions } from "../../../cli/import/args.js";
import { runImport, type ImportDeps } from "../../../cli/import.js";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { CdcClient, clientCredentialSchema, sourceConnectorSchema, tagSchema } from "../../../provider/client/index.js";
import { kafkaUserSchema } from "../../../provider/kafka/api.js";
import { tfInstance, pgConnectionConfig, tfPostgresqlSource, tfResource, tfState } from "../../support/terraform-state.js";
import { apiWrites, webClient } from "../../support/web.js";

// `pulumi-cdc import --from-terraform` with the API's settings: drift in Terraform's world. The
// live objects are read (no write) and compared with the state's; each object that differs is
// named by its address with the inputs that differ, the program keeps the state's values, and an
// object the API no longer lists is said. Without the settings nothing is read, and it says so.

const PASSWORD = "tf-contract-db-password";

function options(argv: string[]): ImportOptions {
  const parsed = parseImportArgs(argv);
  if (parsed.command !== "import") throw new Error("not an import");
  return parsed.options;
}

describe("pulumi-cdc import --from-terraform compares the state with the live objects", () => {
  let emulator: RunningEmulator;
  let work: string;
  let tagId: string;
  let sourceId: string;
  let out: string[];

  const importing = async (state: string, withApi = true) => {
    out = [];
    const file = join(work, `state-${Math.random().toString(36).slice(2)}.tfstate`);
    await writeFile(file, state);
    const program = join(work, `program-${Math.random().toString(36).slice(2)}`);
    const env = withApi ? { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret, CDC_RETRY_ATTEMPTS: "1" } : {};
    const deps: ImportDeps = {
      runPulumi: async () => ({ code: 1, stdout: "", stderr: "error: no Pulumi here" }),
      env,
      cwd: work,
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
      createClient: (settings, tuning) => new CdcClient({ settings, retry: tuning.retry }),
    };
    emulator.resetStats();
    const result = await runImport(options(["--from-terraform", file, "--out", program]), deps);
    expect(result.code, out.join("")).toBe(0);
    expect(apiWrites(emulator)).toEqual({});
    return { stdout: out.join(""), index: await readFile(join(program, "index.ts"), "utf8") };
  };

  const state = (source: Record<string, unknown> = {}, tag: Record<string, unknown> = {}, extra: unknown[] = []) =>
    tfState([
      tfResource("streamkap_tag", "team", [tfInstance("streamkap_tag", { id: tagId, name: "tfc-team", description: "the team", type: ["sources", "pipelines"], system: false, custom: true, ...tag })]),
      tfResource("streamkap_source_postgresql", "orders", [
        tfPostgresqlSource({ id: sourceId, name: "tfc-orders", database_password: PASSWORD, tags: [tagId], ...source }, 0),
      ]),
      ...extra,
    ]);

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    const web = webClient(emulator);
    tagId = (await web.post("/tags", { body: { name: "tfc-team", description: "the team", type: ["pipelines", "sources"] }, schema: tagSchema })).id;
    const config = pgConnectionConfig(PASSWORD);
    sourceId = (await web.post("/sources", { query: { wait: false }, body: { name: "tfc-orders", connector: "postgresql", config, tags: [tagId] }, schema: sourceConnectorSchema })).id!;
    await web.close();
    work = await mkdtemp(join(tmpdir(), "pulumi-cdc-import-tf-contract-"));
  });
  afterAll(async () => {
    await emulator?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("says the live objects match a state that matches them", async () => {
    const { stdout } = await importing(state());
    expect(stdout).toContain(`Compared with the live objects at ${emulator.url}`);
    expect(stdout).toContain("they match the state");
    expect(stdout).not.toContain("Drift:");
    expect(stdout).not.toContain(PASSWORD);
  });

  it("names each address that drifted with the inputs that differ, and writes the state's values", async () => {
    const { stdout, index } = await importing(state({ database_hostname: "orders-old.db.internal", database_port: 5433 }, { description: "the old team" }));
    const drift = stdout.slice(stdout.indexOf("Drift:"));
    expect(drift).toMatch(/^ {2}- streamkap_tag\.team: the live object differs from the state in description \(state "the old team", live "the team"\)/m);
    expect(drift).toMatch(/^ {2}- streamkap_source_postgresql\.orders\[0\]: the live object differs from the state in [^\n]*"orders-old\.db\.internal"[^\n]*live "orders\.db\.internal"/m);
    expect(drift).toMatch(/orders\[0\][^\n]*database.port.user.defined \(state 5433, live \(not set\)\)/);
    expect(drift).toContain("The program holds the state's values");
    expect(index).toContain('"orders-old.db.internal"');
    expect(index).toContain('"the old team"');
    expect(stdout).not.toContain(PASSWORD);
  });

  it("says which object of the state the API no longer lists", async () => {
    const gone = tfResource("streamkap_tag", "gone", [tfInstance("streamkap_tag", { id: "0123456789abcdef01234567", name: "tfc-gone", type: ["sources"], system: false, custom: true })]);
    const { stdout } = await importing(state({}, {}, [gone]));
    expect(stdout).toMatch(/^ {2}- streamkap_tag\.gone: the API lists no such object \(deleted outside Terraform\?\)/m);
    expect(stdout).not.toMatch(/streamkap_tag\.team:|orders\[0\]:/);
  });

  it("compares Kafka users and client credentials too, their secrets never (the API shows neither)", async () => {
    const web = webClient(emulator);
    const user = await web.post("/kafka-access/kafka-users", {
      body: { username: "tfc-reader", password: "tfc-kafka-password", whitelist_ips: "10.0.0.0/8", kafka_acls: [] },
      schema: kafkaUserSchema,
    });
    const cred = await web.post("/auth/client-credentials", { body: { role_ids: ["role_viewer"], description: "tfc dbt" }, schema: clientCredentialSchema });
    await web.close();
    const extra = (ips: string, roles: string[]) => [
      tfResource("streamkap_kafka_user", "reader", [tfInstance("streamkap_kafka_user", { id: user.username, username: user.username, password: "tfc-kafka-password", whitelist_ips: ips, is_create_schema_registry: false })]),
      tfResource("streamkap_client_credential", "dbt", [tfInstance("streamkap_client_credential", { id: cred.client_id, client_id: cred.client_id, secret: cred.secret, role_ids: roles, description: "tfc dbt" })]),
    ];
    const same = await importing(state({}, {}, extra("10.0.0.0/8", ["role_viewer"])));
    expect(same.stdout).toContain("they match the state");
    const drifted = await importing(state({}, {}, extra("10.1.0.0/16", ["role_editor"])));
    expect(drifted.stdout).toMatch(/^ {2}- streamkap_kafka_user\.reader: the live object differs from the state in whitelistIps \(state \["10\.1\.0\.0\/16"\], live \["10\.0\.0\.0\/8"\]\)/m);
    expect(drifted.stdout).toMatch(/^ {2}- streamkap_client_credential\.dbt: the live object differs from the state in roleIds \(state \["role_editor"\], live \["role_viewer"\]\)/m);
    for (const text of [same.stdout, same.index, drifted.stdout]) {
      expect(text).not.toContain("tfc-kafka-password");
      expect(text).not.toContain(cred.secret);
    }
  });

  it("reads nothing without the API's settings, and says so", async () => {
    const requests = () => Object.values(emulator.stats().requests).reduce((a, b) => a + b, 0);
    emulator.resetStats();
    const { stdout } = await importing(state(), false);
    expect(stdout).toContain("Not compared with the live objects: set CDC_API_URL, CDC_CLIENT_ID and CDC_CLIENT_SECRET");
    expect(requests()).toBe(0);
  });
});
