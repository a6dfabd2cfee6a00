import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { CdcClient, clientCredentialSchema } from "../../../provider/client/index.js";
import type { PendingOperation } from "../../../cli/pending.js";
import { decide, runRecover } from "../../../cli/recover.js";
import { DestinationSmtChainProvider } from "../../../provider/resources/destinationSmtChain.js";
import type { PulumiResult, PulumiRunner } from "../../../cli/pulumi.js";
import { existsSync } from "node:fs";
import { snowflakeConfig } from "../../support/fixtures.js";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { ConsoleClient } from "../../support/web.js";

// recover's decisions against the emulator over HTTP; the Pulumi CLI is faked (the end-to-end
// test in test/e2e/chaos.test.ts runs the real one after a real kill -9).

const pgConfig = {
  "database.hostname.user.defined": "db.internal",
  "database.user": "cdc",
  "database.password": "pw-recover-1",
  "database.dbname": "shop",
  "schema.include.list": "public",
  "table.include.list.user.defined": "public.orders",
};

function op(type: string, resourceType: string, name: string, inputs: Record<string, unknown>): PendingOperation {
  const urn = `urn:pulumi:dev::proj::${resourceType}::${name}`;
  return { type, urn, resourceType, inputs, resource: { urn, type: resourceType, inputs } };
}
const SOURCE = "pulumi-nodejs:dynamic/cdc:Source";
const TAG = "pulumi-nodejs:dynamic/cdc:Tag";
const CRED = "pulumi-nodejs:dynamic/cdc:ClientCredential";

describe("pulumi-cdc recover against the API", () => {
  let emulator: RunningEmulator;
  let iac: ConsoleClient;
  let web: ConsoleClient;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    const base = { apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret };
    iac = new ConsoleClient({ settings: { ...base, createdFrom: "terraform" } });
    web = new ConsoleClient({ settings: { ...base, createdFrom: "web" } });
  });
  afterAll(async () => {
    await iac?.close();
    await web?.close();
    await emulator?.stop();
  });

  it("adopts what the interrupted creates made, clears what they never made, and leaves others' objects alone", async () => {
    const made = (await iac.post("/sources", { body: { name: "rec-made", connector: "postgresql", config: pgConfig, created_from: "terraform" } })) as { id: string };
    await web.post("/sources", { body: { name: "rec-by-hand", connector: "postgresql", config: pgConfig, created_from: "web" } });
    const tracked = (await iac.post("/sources", { body: { name: "rec-tracked", connector: "postgresql", config: pgConfig, created_from: "terraform" } })) as { id: string };
    const tag = (await iac.post("/tags", { body: { name: "rec-tag", description: "", type: ["sources"], created_from: "terraform" } })) as { id: string };

    const decisions = await decide(
      iac,
      [
        op("creating", SOURCE, "made", { name: "rec-made", connector: "postgresql" }),
        op("creating", SOURCE, "never", { name: "rec-never", connector: "postgresql" }),
        op("creating", SOURCE, "by-hand", { name: "rec-by-hand", connector: "postgresql" }),
        op("creating", SOURCE, "other-connector", { name: "rec-made", connector: "mysql" }),
        op("creating", SOURCE, "tracked", { name: "rec-tracked", connector: "postgresql" }),
        op("creating", TAG, "tag", { name: "rec-tag", type: ["sources"] }),
        op("creating", SOURCE, "secret-name", { name: { ciphertext: "x" }, connector: "postgresql" }),
        op("updating", SOURCE, "updated", { name: "rec-made", connector: "postgresql" }),
        op("creating", "aws:s3/bucket:Bucket", "bucket", {}),
      ],
      new Set([`${SOURCE}\0${tracked.id}`]),
    );
    expect(decisions.map((d) => [d.op.urn.split("::").at(-1), d.action, "id" in d ? d.id : undefined])).toEqual([
      ["made", "adopt", made.id],
      ["never", "clear", undefined],
      ["by-hand", "clear", undefined],
      ["other-connector", "clear", undefined],
      ["tracked", "clear", undefined],
      ["tag", "adopt", tag.id],
      ["secret-name", "unsettled", undefined],
      ["updated", "refresh", undefined],
      ["bucket", "leave", undefined],
    ]);
    expect(decisions[2]!.note).toMatch(/not this create's \(created from web, not by Pulumi\)/);
    expect(decisions[3]!.note).toMatch(/a postgresql connector, not mysql/);
  });

  it("finds an interrupted Kafka user create by its username, which is also its id", async () => {
    const KAFKA = "cdc:index:KafkaUser";
    const body = (username: string, created_from: string) => ({ username, password: "recover-password-1", kafka_acls: [], created_from });
    await iac.post("/kafka-access/kafka-users", { body: body("rec-kafka", "terraform") });
    await web.post("/kafka-access/kafka-users", { body: body("rec-kafka-web", "web") });
    const decisions = await decide(
      iac,
      [
        op("creating", KAFKA, "made", { username: "rec-kafka", password: { ciphertext: "x" } }),
        op("creating", KAFKA, "never", { username: "rec-kafka-never" }),
        op("creating", KAFKA, "by-hand", { username: "rec-kafka-web" }),
      ],
      new Set(),
    );
    expect(decisions.map((d) => [d.op.urn.split("::").at(-1), d.action, "id" in d ? d.id : undefined])).toEqual([
      ["made", "adopt", "rec-kafka"],
      ["never", "clear", undefined],
      ["by-hand", "clear", undefined],
    ]);
    expect(decisions[1]!.note).toMatch(/no Kafka user named "rec-kafka-never" exists/);
    expect(decisions[2]!.note).toMatch(/created from web, not by Pulumi/);
  });

  it("finds an interrupted topic destination by its two ends: attached is adopted, not attached is cleared", async () => {
    const BINDING = "cdc:index:TopicDestination";
    const source = (await iac.post("/sources", { body: { name: "rec-crm", connector: "hubspot", config: { resources: ["contacts", "deals"], token: "pat-1" }, created_from: "terraform" } })) as { id: string };
    const destination = (await iac.post("/destinations", {
      body: { name: "rec-lake", connector: "snowflake", config: { "snowflake.url.name": "a", "snowflake.user.name": "b", "snowflake.private.key": "c", "snowflake.database.name": "d", "snowflake.schema.name": "e" }, created_from: "terraform" },
    })) as { id: string };
    const contacts = `source_${source.id}.hubspot.contacts`;
    await iac.put("/topics/{t}/destinations/{d}", { params: { t: contacts, d: destination.id } });
    const decisions = await decide(
      iac,
      [
        op("creating", BINDING, "attached", { topicId: contacts, destinationId: destination.id }),
        op("creating", BINDING, "never", { topicId: `source_${source.id}.hubspot.deals`, destinationId: destination.id }),
      ],
      new Set(),
    );
    expect(decisions.map((d) => [d.op.urn.split("::").at(-1), d.action, "id" in d ? d.id : undefined])).toEqual([
      ["attached", "adopt", `${contacts}|${destination.id}`],
      ["never", "clear", undefined],
    ]);
    expect(decisions[1]!.note).toMatch(/the attach never happened/);
  });

  it("finds an interrupted SMT chain create by its destination: the pending entries there are adopted as the destination's id, any other chain is cleared", async () => {
    const CHAIN = "pulumi-nodejs:dynamic/cdc:DestinationSmtChain";
    const snowflake = { "snowflake.url.name": "a", "snowflake.user.name": "b", "snowflake.private.key": "c", "snowflake.database.name": "d", "snowflake.schema.name": "e" };
    const destination = async (name: string) => ((await iac.post("/destinations", { body: { name, connector: "snowflake", config: snowflake, created_from: "terraform" } })) as { id: string }).id;
    const [made, never, tracked] = [await destination("rec-chain-made"), await destination("rec-chain-never"), await destination("rec-chain-tracked")];
    // The inputs the engine records: check()'s, defaults filled in, the salt encrypted.
    const program = [
      { type: "mask_field", name: "Mask email", fieldsInclude: ["orders.email"], maskSalt: "program-salt-1" },
      { type: "regex_router", name: "Route orders", regex: "(.*)_orders" },
    ];
    const checked = await new DestinationSmtChainProvider().check({}, { destination: made, transforms: program });
    expect(checked.failures).toEqual([]);
    const recorded = (checked.inputs.transforms as Array<Record<string, unknown>>).map((e) => (e.maskSalt ? { ...e, maskSalt: { ciphertext: "x" } } : e));
    const inputs = (id: string, transforms: unknown = recorded) => ({ destination: id, transforms });
    // What the interrupted create's PUT wrote, on the destination it names and on the one the stack already tracks.
    const put = {
      transforms: [
        { type: "mask_field", name: "Mask email", enabled: true, config: { fields_include: ["orders.email"] }, secret_operations: [{ pointer: "/mask_salt", operation: "replace", value: "program-salt-1" }] },
        { type: "regex_router", name: "Route orders", enabled: true, config: { regex: "(.*)_orders" } },
      ],
    };
    for (const id of [made, tracked]) await iac.put("/destinations/{id}/smt-chain", { params: { id }, body: put });

    const decisions = await decide(
      iac,
      [
        op("creating", CHAIN, "made", inputs(made)),
        op("creating", CHAIN, "never", inputs(never)),
        op("creating", CHAIN, "other", inputs(made, [recorded[0], { ...recorded[1], regex: "(.*)_items" }])),
        op("creating", CHAIN, "empty", inputs(never, [])),
        op("creating", CHAIN, "tracked", inputs(tracked)),
        op("creating", CHAIN, "gone", inputs("no-such-destination")),
        op("creating", CHAIN, "secret-list", inputs(made, { ciphertext: "x" })),
      ],
      new Set([`${CHAIN}\0${tracked}`]),
    );
    expect(decisions.map((d) => [d.op.urn.split("::").at(-1), d.action, "id" in d ? d.id : undefined])).toEqual([
      ["made", "adopt", made],
      ["never", "clear", undefined],
      ["other", "clear", undefined],
      // No chain is the empty chain the create would have written.
      ["empty", "adopt", never],
      ["tracked", "clear", undefined],
      ["gone", "clear", undefined],
      ["secret-list", "unsettled", undefined],
    ]);
    expect(decisions[0]!.note).toMatch(/holds this create's 2 transform\(s\): taken into the stack \(the API never shows a secret it holds/);
    expect(decisions[1]!.note).toContain(`the chain of destination ${never} is not this create's (transforms[0] (mask_field "Mask email") was removed, and 1 more)`);
    expect(decisions[2]!.note).toContain('transforms[1].regex of "Route orders" was changed from "(.*)_items" to "(.*)_orders"');
    expect(decisions[3]!.note).not.toContain("secret");
    expect(decisions[5]!.note).toMatch(/destination no-such-destination no longer exists/);
  });

  it("finds pipelines, transforms, topics and the agents area's objects a killed run made; names it cannot tell apart fail recover", async () => {
    const source = (await iac.post("/sources", { body: { name: "rec-pipe-src", connector: "postgresql", config: pgConfig, created_from: "terraform" } })) as { id: string; name: string; topic_ids: string[] };
    const destination = (await iac.post("/destinations", { body: { name: "rec-pipe-dst", connector: "snowflake", config: snowflakeConfig, created_from: "terraform" } })) as { id: string; name: string };
    const pipelineBody = (name: string, createdFrom: string) => ({
      name,
      source: { id: source.id, name: source.name, connector: "postgresql", topics: ["public.orders"] },
      destination: { id: destination.id, name: destination.name, connector: "snowflake" },
      created_from: createdFrom,
    });
    const pipe = (await iac.post("/pipelines", { body: pipelineBody("rec-pipe", "terraform") })) as { id: string };
    await web.post("/pipelines", { body: pipelineBody("rec-pipe-by-hand", "web") });
    const transformConfig = { "transforms.name": "rec-clean", "transforms.input.topic.pattern": "source_x\\.public\\.(.*)", "transforms.output.topic.pattern": "clean.$1" };
    const transform = (await iac.post("/transforms", { body: { transform: "map_filter", config: transformConfig, created_from: "terraform" } })) as { id: string };
    const llm = (await iac.post("/agents/connections/llm", { body: { name: "rec-gpt", provider: "openai", model: "gpt-4o", api_key: "sk-1", created_from: "terraform" } })) as { connection_id: string };
    // Two HTTP connections of one name and url made by Pulumi, in no stack: which one the run made cannot be told.
    for (let i = 0; i < 2; i++) await iac.post("/agents/connections/http", { body: { name: "rec-twins", url: "https://t.example.com", headers: {}, created_from: "terraform" } });
    const agent = (await iac.post("/agents", { body: { name: "rec-agent", instructions: "Summarise.", llm_connection_id: llm.connection_id, http_connection_ids: [], created_from: "terraform" } })) as { job_id: string };
    const topicId = source.topic_ids[0]!;

    const decisions = await decide(
      iac,
      [
        op("creating", "cdc:index:Pipeline", "pipe", { name: "rec-pipe", source: { id: source.id }, destination: { id: destination.id } }),
        op("creating", "cdc:index:Pipeline", "pipe-never", { name: "rec-pipe-never", source: { id: source.id }, destination: { id: destination.id } }),
        op("creating", "cdc:index:Pipeline", "pipe-by-hand", { name: "rec-pipe-by-hand", source: { id: source.id }, destination: { id: destination.id } }),
        op("creating", "cdc:transforms:MapFilter", "clean", { name: "rec-clean", inputTopicPattern: "source_x\\.public\\.(.*)", outputTopicPattern: "clean.$1" }),
        op("creating", "cdc:index:Transform", "clean-other-type", { name: "rec-clean", transform: "fan_out" }),
        op("creating", "pulumi-nodejs:dynamic/cdc:LlmConnection", "gpt", { name: "rec-gpt", provider: "openai", model: "gpt-4o" }),
        op("creating", "pulumi-nodejs:dynamic/cdc:Agent", "agent", { name: "rec-agent", instructions: "Summarise." }),
        op("creating", "pulumi-nodejs:dynamic/cdc:Agent", "agent-other", { name: "rec-agent", instructions: "Something else." }),
        op("creating", "cdc:index:HttpConnection", "twins", { name: "rec-twins", url: "https://t.example.com" }),
        op("creating", "cdc:index:Topic", "topic", { topicId, partitionCount: 3 }),
        op("creating", "cdc:index:Topic", "topic-not-yet", { topicId: `source_${source.id}.public.nope`, partitionCount: 3 }),
      ],
      new Set(),
    );
    expect(decisions.map((d) => [d.op.urn.split("::").at(-1), d.action, "id" in d ? d.id : undefined])).toEqual([
      ["pipe", "adopt", pipe.id],
      ["pipe-never", "clear", undefined],
      ["pipe-by-hand", "clear", undefined],
      ["clean", "adopt", transform.id],
      ["clean-other-type", "clear", undefined],
      ["gpt", "adopt", llm.connection_id],
      ["agent", "adopt", agent.job_id],
      ["agent-other", "clear", undefined],
      ["twins", "unsettled", undefined],
      ["topic", "adopt", topicId],
      ["topic-not-yet", "clear", undefined],
    ]);
    expect(decisions.find((d) => d.op.urn.endsWith("::twins"))!.note).toMatch(/2 HTTP connections named "rec-twins" .*cannot be told: delete all but one/);
    expect(decisions.find((d) => d.op.urn.endsWith("::pipe-by-hand"))!.note).toMatch(/created from web, not by Pulumi/);
    // None is called "not a pulumi-cdc resource".
    expect(decisions.map((d) => d.note).join("\n")).not.toMatch(/not a pulumi-cdc resource/);
  });

  it("finds an autonamed object of a run that recorded nothing by its logical name, not by the preview's fresh autoname", async () => {
    // The killed run named them; recover sees only the names a new preview drew.
    const made = (await iac.post("/sources", { body: { name: "auto-src-1a2b3c4d", connector: "postgresql", config: pgConfig, created_from: "terraform" } })) as { id: string };
    for (const suffix of ["0badc0de", "feedf00d"]) await iac.post("/agents/connections/llm", { body: { name: `auto-gpt-${suffix}`, provider: "openai", model: "gpt-4o", api_key: "sk", created_from: "terraform" } });
    const planned = (o: PendingOperation): PendingOperation => ({ ...o, planned: true });
    const [source, gpt, pending] = await decide(
      iac,
      [
        planned(op("creating", SOURCE, "auto-src", { name: "auto-src-99999999", connector: "postgresql" })),
        planned(op("creating", "cdc:index:LlmConnection", "auto-gpt", { name: "auto-gpt-99999999", provider: "openai", model: "gpt-4o" })),
        // A pending create's name is the one it sent: looked for exactly.
        op("creating", SOURCE, "auto-src", { name: "auto-src-99999999", connector: "postgresql" }),
      ],
      new Set(),
    );
    expect(source).toMatchObject({ action: "adopt", id: made.id });
    expect(gpt).toMatchObject({ action: "unsettled", note: expect.stringMatching(/2 LLM connections named "auto-gpt-<8 hex>" .*auto-gpt-0badc0de/) });
    expect(pending).toMatchObject({ action: "clear" });
  });

  it("deletes a credential only when exactly one unclaimed match can be the lost one", async () => {
    const make = (description: string) =>
      iac.post("/auth/client-credentials", { body: { role_ids: ["role_viewer"], description, created_from: "terraform" }, schema: clientCredentialSchema });
    const lone = await make("rec lone");
    await make("rec twin");
    await make("rec twin");
    const [one, twins, none] = await decide(
      iac,
      [
        op("creating", CRED, "lone", { roleIds: ["role_viewer"], description: "rec lone" }),
        op("creating", CRED, "twin", { roleIds: ["role_viewer"], description: "rec twin" }),
        op("creating", CRED, "none", { roleIds: ["role_admin"], description: "rec none" }),
      ],
      new Set(),
    );
    expect(one).toMatchObject({ action: "delete-and-clear", ids: [lone.client_id] });
    // Which twin the run made cannot be told: recover names them and fails, instead of saying "Done".
    expect(twins).toMatchObject({ action: "unsettled" });
    expect(twins!.note).toMatch(/2 credentials .* none was deleted/);
    expect(none).toMatchObject({ action: "clear", note: expect.stringMatching(/no credential was created/) });
  });

  it("never takes an interrupted adoption for a lost create: the adopted credential stays, and the next up adopts it again", async () => {
    const adopted = await iac.post("/auth/client-credentials", { body: { role_ids: ["role_viewer"], description: "rec adopted", created_from: "terraform" }, schema: clientCredentialSchema });
    const [decision] = await decide(iac, [op("creating", CRED, "adopted", { roleIds: ["role_viewer"], description: "rec adopted", adoptId: adopted.client_id })], new Set());
    // Without the adoption's rule this was the one unclaimed match: deleted as a lost create.
    expect(decision).toMatchObject({ action: "clear", note: expect.stringMatching(new RegExp(`adopts ${adopted.client_id}, which was there before the run`)) });
  });

  describe("with a faked Pulumi CLI", () => {
    const checkpoint = (pending: unknown[]) => ({ version: 3, deployment: { resources: [], pending_operations: pending } });

    function fakePulumi(handlers: Record<string, (args: readonly string[]) => PulumiResult>): { run: PulumiRunner; calls: string[][] } {
      const calls: string[][] = [];
      const run: PulumiRunner = async (args) => {
        calls.push([...args]);
        const key = args.slice(0, 2).join(" ");
        // As Pulumi lists a stack's config: plain values, the secret one's only with --show-secrets.
        if (key === "config --json" && !handlers[key]) return configList(args.includes("--show-secrets"));
        const handler = handlers[key] ?? handlers[args[0]!];
        if (!handler) return { code: 0, stdout: "", stderr: "" };
        return handler(args);
      };
      return { run, calls };
    }

    const configValues: Record<string, string> = {};
    beforeAll(() => {
      Object.assign(configValues, { "cdc:apiUrl": emulator.url, "cdc:clientId": emulator.clientId, "cdc:clientSecret": emulator.clientSecret });
    });
    const configList = (shown: boolean): PulumiResult => ({
      code: 0,
      stdout: JSON.stringify(
        Object.fromEntries(Object.entries(configValues).map(([k, value]) => [k, k === "cdc:clientSecret" ? (shown ? { value, secret: true } : { secret: true }) : { value, secret: false }])),
      ),
      stderr: "",
    });

    function deps(run: PulumiRunner, alive: (pid: number) => boolean) {
      const out: string[] = [];
      const err: string[] = [];
      return {
        out,
        err,
        deps: {
          runPulumi: run,
          env: {},
          cwd: process.cwd(),
          stdout: (t: string) => void out.push(t),
          stderr: (t: string) => void err.push(t),
          createClient: () => new CdcClient({ settings: { apiUrl: emulator.url, clientId: emulator.clientId, clientSecret: emulator.clientSecret, createdFrom: "terraform" } }),
          processAlive: alive,
        },
      };
    }

    const pending = [{ type: "creating", resource: { urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/cdc:Source::gone", type: SOURCE, inputs: { name: "rec-gone", connector: "postgresql" } } }];
    const lockedOnce = (pid: number) => {
      let locked = true;
      return (): PulumiResult => {
        if (!locked) return { code: 0, stdout: "", stderr: "" };
        return {
          code: 255,
          stdout: "",
          stderr: `error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with \`pulumi cancel\`.\n  file:///x/.pulumi/locks/o/p/dev/1.json: created by root@${hostname()} (pid ${pid}) at 2026-11-22T07:45:31Z`,
        };
      };
    };

    it("without --yes changes nothing: no import, no refresh", async () => {
      const { run, calls } = fakePulumi({ "stack export": () => ({ code: 0, stdout: JSON.stringify(checkpoint(pending)), stderr: "" }) });
      const d = deps(run, () => false);
      const result = await runRecover({ stack: "dev", yes: false }, d.deps);
      expect(result.code).toBe(0);
      expect(d.out.join("")).toMatch(/clear\s+gone \(creating\): no source named "rec-gone" exists/);
      expect(calls.map((c) => c.slice(0, 2).join(" "))).not.toContain("stack import");
      expect(calls.map((c) => c[0])).not.toContain("refresh");
    });

    it("when a kill cut Pulumi's checkpoint sidecar short: plans from the file without --yes, removes the sidecar with it", async () => {
      // The file backend's layout: the checkpoint file whole, its .attrs sidecar empty.
      const backend = await mkdtemp(join(tmpdir(), "pulumi-cdc-sidecar-"));
      try {
        const folder = join(backend, ".pulumi", "stacks", "p");
        await mkdir(folder, { recursive: true });
        const file = join(folder, "dev.json");
        await writeFile(file, JSON.stringify({ version: 3, checkpoint: { stack: "organization/p/dev", latest: { resources: [], pending_operations: pending } } }));
        await writeFile(`${file}.attrs`, "");
        
        const { run, calls } = fakePulumi({
          "stack export": () =>
            // What Pulumi prints while the sidecar is broken; afterwards the checkpoint as usual.
            existsSync(`${file}.attrs`) ? { code: 255, stdout: "", stderr: "error: failed to load checkpoint: EOF\n" } : { code: 0, stdout: JSON.stringify(checkpoint(pending)), stderr: "" },
          "whoami --verbose": () => ({ code: 0, stdout: JSON.stringify({ user: "u", url: `file://${backend}` }), stderr: "" }),
        });

        const dry = deps(run, () => false);
        expect((await runRecover({ stack: "dev", yes: false }, dry.deps)).code).toBe(0);
        expect(dry.err.join("")).toBe("");
        expect(dry.out.join("")).toMatch(/killed while Pulumi wrote its checkpoint's metadata file[^\n]*--yes removes [^\n]*dev\.json\.attrs/);
        expect(dry.out.join("")).toMatch(/1 pending operation from an interrupted run:\n\s+gone \(creating\)/);
        expect(calls.map((c) => c[0])).not.toContain("config");
        expect(dry.out.join("")).toMatch(/Nothing was changed/);
        expect(await readFile(`${file}.attrs`, "utf8")).toBe("");
        expect(calls.map((c) => c[0])).not.toContain("refresh");

        const applied = deps(run, () => false);
        expect((await runRecover({ stack: "dev", yes: true }, applied.deps)).code).toBe(0);
        expect(applied.err.join("")).toBe("");
        expect(applied.out.join("")).toMatch(/Removed [^\n]*dev\.json\.attrs/);
        expect(applied.out.join("")).toMatch(/clear\s+gone \(creating\): no source named "rec-gone" exists/);
        expect(existsSync(`${file}.attrs`)).toBe(false);
        expect(existsSync(file)).toBe(true);
        expect(calls.map((c) => c.slice(0, 2).join(" ")).slice(-2)).toEqual(["stack import", "refresh --yes"]);
      } finally {
        await rm(backend, { recursive: true, force: true });
      }
    });

    it("a checkpoint Pulumi cannot load for another reason fails with Pulumi's words, and nothing is touched", async () => {
      const backend = await mkdtemp(join(tmpdir(), "pulumi-cdc-sidecar-"));
      try {
        const { run } = fakePulumi({
          "stack export": () => ({ code: 255, stdout: "", stderr: "error: failed to load checkpoint: unexpected end of JSON input\n" }),
          "whoami --verbose": () => ({ code: 0, stdout: JSON.stringify({ user: "u", url: `file://${backend}` }), stderr: "" }),
        });
        const d = deps(run, () => false);
        expect((await runRecover({ stack: "dev", yes: true }, d.deps)).code).not.toBe(0);
        expect(d.err.join("")).toMatch(/failed to load checkpoint: unexpected end of JSON input/);
      } finally {
        await rm(backend, { recursive: true, force: true });
      }
    });

    it("releases a lock whose owner is gone, then imports the settled checkpoint and refreshes", async () => {
      const unlock = lockedOnce(999_999);
      let locked = true;
      const { run, calls } = fakePulumi({
        "stack export": () => ({ code: 0, stdout: JSON.stringify(checkpoint(pending)), stderr: "" }),
        "stack import": () => (locked ? unlock() : { code: 0, stdout: "", stderr: "" }),
        cancel: () => {
          locked = false;
          return { code: 0, stdout: "", stderr: "" };
        },
      });
      const d = deps(run, () => false);
      const result = await runRecover({ stack: "dev", yes: true }, d.deps);
      expect(d.err.join("")).toBe("");
      expect(result.code).toBe(0);
      expect(calls.map((c) => c.slice(0, 2).join(" "))).toEqual([
        "stack export",
        // The settings: one listing, its secrets decrypted.
        "config --json",
        "preview --json",
        "stack import",
        "cancel --yes",
        "stack import",
        "refresh --yes",
      ]);
      expect(d.out.join("")).toMatch(/lock \(pid 999999, no longer running\) was released/);
    });

    it("right after the kill, waits for in-flight creates before calling one never made", async () => {
      const late = [{ type: "creating", resource: { urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/cdc:Source::late", type: SOURCE, inputs: { name: "rec-late", connector: "postgresql" } } }];
      const stoppedAt = Date.parse("2026-11-22T08:00:00Z");
      const { run } = fakePulumi({
        "stack export": () => ({ code: 0, stdout: JSON.stringify({ version: 3, deployment: { manifest: { time: new Date(stoppedAt).toISOString() }, resources: [], pending_operations: late } }), stderr: "" }),
      });
      const d = deps(run, () => false);
      const waits: number[] = [];
      const result = await runRecover(
        { stack: "dev", yes: false },
        {
          ...d.deps,
          now: () => stoppedAt + 2_000,
          // The create the killed run sent lands while recover waits.
          sleep: async (ms) => {
            waits.push(ms);
            await iac.post("/sources", { body: { name: "rec-late", connector: "postgresql", config: pgConfig, created_from: "terraform" } });
          },
        },
      );
      expect(result.code).toBe(0);
      expect(waits).toEqual([13_000]);
      expect(result.decisions?.map((x) => x.action)).toEqual(["adopt"]);
      expect(d.out.join("")).toMatch(/stopped 2 s ago; waiting 13 s for requests it may still have in flight/);
    });

    it("with skipped checkpoints: takes the program's objects the API holds but the stack does not into it, and lists nothing for the others", async () => {
      // A run killed with PULUMI_SKIP_CHECKPOINTS=true left the stack as it was: no pending operation at all.
      await iac.post("/sources", { body: { name: "rec-untracked", connector: "postgresql", config: pgConfig, created_from: "terraform" } });
      const STACK_URN = "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev";
      const PROVIDER_URN = "urn:pulumi:dev::p::pulumi:providers:pulumi-nodejs::default";
      const state = { version: 3, deployment: { resources: [{ urn: STACK_URN, custom: false, type: "pulumi:pulumi:Stack" }, { urn: PROVIDER_URN, custom: true, type: "pulumi:providers:pulumi-nodejs", id: "p-1" }], pending_operations: [] } };
      const planned = (name: string) => {
        const urn = `urn:pulumi:dev::p::${SOURCE}::${name}`;
        return { op: "create", urn, newState: { urn, custom: true, type: SOURCE, parent: STACK_URN, provider: `${PROVIDER_URN}::p-1`, inputs: { name, connector: "postgresql", config: { "database.password": "[secret]" } } } };
      };
      let imported: unknown;
      const { run, calls } = fakePulumi({
        "stack export": () => ({ code: 0, stdout: JSON.stringify(state), stderr: "" }),
        "preview --json": () => ({ code: 0, stdout: JSON.stringify({ steps: [planned("rec-untracked"), planned("rec-not-made")] }), stderr: "" }),
        "stack import": (args) => {
          imported = args;
          return { code: 0, stdout: "", stderr: "" };
        },
      });
      const dry = deps(run, () => false);
      const plan = await runRecover({ stack: "dev", yes: false }, { ...dry.deps, sleep: async () => undefined });
      expect(plan.code).toBe(0);
      expect(plan.decisions?.map((x) => [x.action, x.op.planned, x.op.inputs.name])).toEqual([["adopt", true, "rec-untracked"]]);
      expect(dry.out.join("")).toMatch(/1 object of the program made but not recorded \(a run killed with skipped checkpoints\)/);
      expect(dry.out.join("")).toMatch(/adopt\s+rec-untracked \(not in the stack\): found source "rec-untracked"/);
      // Found one: the run was interrupted, so a create it may still have had in flight is waited for.
      expect(dry.out.join("")).toMatch(/waiting \d+ s for requests it may still have had in flight/);
      expect(calls.map((c) => c[0])).not.toContain("refresh");

      const applied = deps(run, () => false);
      expect((await runRecover({ stack: "dev", yes: true }, { ...applied.deps, sleep: async () => undefined })).code).toBe(0);
      expect(applied.err.join("")).toBe("");
      expect(imported).toBeDefined();
      expect(calls.map((c) => c.slice(0, 2).join(" ")).slice(-2)).toEqual(["stack import", "refresh --yes"]);
    });

    it("with nothing to settle, --yes still refreshes: a destroy killed with skipped checkpoints leaves deleted objects in the stack", async () => {
      const { run, calls } = fakePulumi({
        "stack export": () => ({ code: 0, stdout: JSON.stringify(checkpoint([])), stderr: "" }),
        "preview --json": () => ({ code: 0, stdout: JSON.stringify({ steps: [] }), stderr: "" }),
      });
      const d = deps(run, () => false);
      expect((await runRecover({ stack: "dev", yes: true }, d.deps)).code).toBe(0);
      expect(calls.map((c) => c.slice(0, 2).join(" "))).toContain("refresh --yes");
      expect(calls.map((c) => c.slice(0, 2).join(" "))).not.toContain("stack import");
      expect(d.out.join("")).toMatch(/no pending operations and no untracked objects/);
    });

    it("never breaks the lock of a run on another host: says whose it is and how to release it deliberately", async () => {
      const { run, calls } = fakePulumi({
        "stack export": () => ({ code: 0, stdout: JSON.stringify(checkpoint(pending)), stderr: "" }),
        "stack import": () => ({
          code: 255,
          stdout: "",
          stderr: "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n  file:///x/.pulumi/locks/o/p/dev/1.json: created by ci@runner-7.example (pid 1) at 2026-11-22T07:45:31Z",
        }),
      });
      // pid 1 is gone nowhere: even a pid that is dead here says nothing of another machine's.
      const d = deps(run, () => false);
      const result = await runRecover({ stack: "dev", yes: true }, d.deps);
      expect(result.code).toBe(1);
      expect(d.err.join("")).toMatch(/locked by ci@runner-7\.example \(pid 1\), a run on another host.*release the lock deliberately with `pulumi cancel --stack dev`/);
      expect(calls.map((c) => c[0])).not.toContain("cancel");
      expect(calls.map((c) => c[0])).not.toContain("refresh");
    });

    it("refuses to break the lock of a pulumi that is still running", async () => {
      const { run, calls } = fakePulumi({
        "stack export": () => ({ code: 0, stdout: JSON.stringify(checkpoint(pending)), stderr: "" }),
        "stack import": lockedOnce(4242),
      });
      const d = deps(run, (pid) => pid === 4242);
      const result = await runRecover({ stack: "dev", yes: true }, d.deps);
      expect(result.code).toBe(1);
      expect(d.err.join("")).toMatch(/locked by another pulumi process \(pid 4242 on .*\): wait for it to finish/);
      expect(calls.map((c) => c[0])).not.toContain("cancel");
    });
  });
});
