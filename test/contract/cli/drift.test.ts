import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { destinationConnectorSchema, sourceConnectorSchema } from "../../../provider/client/index.js";
import { secretKeySet, catalogueEntry } from "../../../provider/catalogue.js";
import { MASK } from "../../../provider/normalize.js";
import { CDC_CLI, runCdc } from "../../support/process.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../../support/pulumi.js";
import { ConsoleClient, webClient } from "../../support/web.js";
import { markdownCell } from "../../../cli/report.js";

// The built `pulumi-cdc drift` command, as a user runs it, on a stack deployed by the real
// Pulumi engine against an emulator started here. Out-of-band changes are made with a separate
// client, like a person in the web console, and every command the report suggests is run to
// check that it really reconciles.

const ROOT = resolve(__dirname, "..", "..", "..");
const FIXTURE = join(ROOT, "test", "e2e", "fixtures", "pipeline");
const DB_PASSWORD = "CLI-DRIFT-PGPASS-51d0";
const SNOWFLAKE_KEY = "CLI-DRIFT-SFKEY-a8e2";

interface DriftJson {
  stack: string;
  checkedAt: string;
  clean: boolean;
  resources: Array<{
    type: string;
    name: string;
    id: string;
    urn: string;
    drift: {
      detected: boolean;
      maskedDiff: string;
      changedKeys: string[];
      deleted?: boolean;
      status?: { desired: string; live: string; drifted: boolean };
    };
  }>;
}

describe("pulumi-cdc drift on a deployed stack", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let stack: TestStack;
  let cliEnv: NodeJS.ProcessEnv;
  // Never expected in any output of the command.
  let secrets: string[];

  async function drift(expectedCode: number): Promise<DriftJson> {
    const result = await stack.drift(["--json"], { stackConfigOnly: true });
    expect(result.code, `exit code; stderr: ${result.stderr}`).toBe(expectedCode);
    for (const secret of secrets) expect(result.stdout + result.stderr).not.toContain(secret);
    expect(result.stdout).not.toContain("ciphertext");
    return JSON.parse(result.stdout) as DriftJson;
  }

  const byType = (report: DriftJson, type: string) => {
    const found = report.resources.find((r) => r.type === type);
    if (!found) throw new Error(`no ${type} in ${JSON.stringify(report)}`);
    return found;
  };

  beforeAll(async () => {
    if (!existsSync(CDC_CLI)) throw new Error(`${CDC_CLI} is missing: run \`npm run build\` first`);
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    // A stack name of its own: the fixture directory is shared with the end-to-end suite, which runs at the same time.
    stack = await TestStack.create(FIXTURE, { stackName: `cli-drift-${process.pid}` });
    await stack.useApi(emulator, {}, { "e2e:dbPassword": DB_PASSWORD, "e2e:snowflakeKey": SNOWFLAKE_KEY });
    secrets = [emulator.clientSecret, DB_PASSWORD, SNOWFLAKE_KEY];
    // The stack's backend, passphrase and PULUMI_HOME, and no CDC_* variables: the API settings must come from the stack's config.
    cliEnv = Object.fromEntries(Object.entries(stack.environment()).filter(([k]) => !k.startsWith("CDC_")));
    await stack.up();
  });

  afterAll(async () => {
    await stack?.cleanup();
    await web?.close();
    await emulator?.stop();
  });

  /** The API requests, by route, that one run of the command makes: (requests after) - (requests before). */
  async function requestsOf(run: () => Promise<unknown>): Promise<Record<string, number>> {
    const before = { ...emulator.stats().requests };
    await run();
    const out: Record<string, number> = {};
    for (const [route, n] of Object.entries(emulator.stats().requests)) if (n !== (before[route] ?? 0)) out[route] = n - (before[route] ?? 0);
    return out;
  }

  it("exits 0 with a clean report right after `pulumi up`", async () => {
    // The API calls of a check, pinned: one listing per kind (the tag by id), the destination's
    // config comparison, one token. Loading only what the stack needs changed none of them.
    const calls = await requestsOf(() => drift(0));
    expect(calls).toEqual({
      "POST /auth/access-token": 1,
      "GET /sources": 1,
      "GET /destinations": 1,
      "GET /destinations/:destination_id/config-history/compare-to-original": 1,
      "GET /tags": 1,
      "GET /auth/client-credentials": 1,
    });
    const report = await drift(0);
    expect(report).toMatchObject({ stack: stack.stackName, clean: true });
    expect(Number.isNaN(Date.parse(report.checkedAt))).toBe(false);
    // The source, the destination, the tag and the client credential (whose roles and description change in place).
    expect(report.resources.map((r) => r.type).sort()).toEqual(["client_credential", "destination", "source", "tag"]);
    expect(byType(report, "tag")).toMatchObject({ name: expect.stringMatching(/^pii-[0-9a-f]+$/), drift: { detected: false, maskedDiff: "" } });
    expect(byType(report, "client_credential")).toMatchObject({ drift: { detected: false } });
    for (const r of report.resources.filter((x) => x.type === "source" || x.type === "destination")) {
      expect(r.drift).toMatchObject({ detected: false, maskedDiff: "", status: { desired: "active", live: "Active", drifted: false } });
      expect(r.urn).toMatch(/^urn:pulumi:cli-drift-\d+::cdc-e2e-pipeline::pulumi-nodejs:dynamic\/cdc:(Source|Destination)::(orders|warehouse)$/);
    }
    expect(byType(report, "source").name).toBe("orders-e2e");

    const human = await stack.drift([], { stackConfigOnly: true });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`✓ source orders-e2e (id ${byType(report, "source").id}): no drift`);
    expect(human.stdout).toMatch(/✓ destination warehouse-[0-9a-f]+ \(id [0-9a-f]+\): no drift/);
    expect(human.stdout).toMatch(/✓ tag pii-[0-9a-f]+ \(id [0-9a-f-]+\): no drift/);
    expect(human.stdout).toContain(`No drift: 4 resources of stack ${stack.stackName} match the API.`);
  });

  it("exits 2 with the masked diff when the destination is edited outside Pulumi, and `pulumi up` reconciles it", async () => {
    const id = byType(await drift(0), "destination").id;
    const live = await web.findOne("/destinations/{id}", destinationConnectorSchema, { params: { id } });
    const config: Record<string, unknown> = { ...live!.config, "snowflake.schema.name": "CONSOLE_EDIT" };
    // Secrets go back as the mask, which the API reads as "keep the stored value".
    for (const key of secretKeySet(catalogueEntry("destination", "snowflake"), config)) if (key in config) config[key] = MASK;
    await web.put("/destinations/{id}", { params: { id }, body: { name: live!.name, connector: live!.connector, config } });

    const report = await drift(2);
    expect(report.clean).toBe(false);
    const destination = byType(report, "destination");
    expect(destination.drift.detected).toBe(true);
    expect(destination.drift.maskedDiff).toContain("+snowflake.schema.name: CONSOLE_EDIT");
    expect(destination.drift.maskedDiff).toContain(`snowflake.private.key: ${MASK}`);
    expect(byType(report, "source").drift.detected).toBe(false);

    const human = await stack.drift([], { stackConfigOnly: true });
    expect(human.code).toBe(2);
    expect(human.stdout).toContain(`✗ destination ${destination.name} (id ${id}): drift\n`);
    expect(human.stdout).toContain("\n    +snowflake.schema.name: CONSOLE_EDIT\n");
    expect(human.stdout).toContain("run `pulumi up` to put the program's config back, or `pulumi refresh` to accept the live config");
    for (const secret of secrets) expect(human.stdout + human.stderr).not.toContain(secret);

    // Markdown, on stdout and appended to a summary file (as to $GITHUB_STEP_SUMMARY), whatever stdout's format.
    const dir = mkdtempSync(join(tmpdir(), "pulumi-cdc-drift-md-"));
    try {
      const summary = join(dir, "step-summary.md");
      writeFileSync(summary, "## Earlier step\n");
      const md = await stack.drift(["--format", "markdown", "--summary-file", summary], { stackConfigOnly: true });
      expect(md.code, md.stderr).toBe(2);
      const row = md.stdout.split("\n").find((l) => l.startsWith("| destination |"));
      expect(row).toBeDefined();
      expect(row).toContain(`| destination | ${markdownCell(destination.name)} (id ${markdownCell(id)}) |`);
      expect(row).toContain(markdownCell("+snowflake.schema.name: CONSOLE_EDIT"));
      expect(row).toContain(markdownCell("-snowflake.schema.name: RAW"));
      expect(row).toContain("`pulumi up` puts the program's config back");
      expect(md.stdout).not.toMatch(/\| source \|/);
      const asJson = await stack.drift(["--json", "--summary-file", summary], { stackConfigOnly: true });
      expect(asJson.code).toBe(2);
      expect(JSON.parse(asJson.stdout).clean).toBe(false);
      // Appended twice after what was there, never truncated: the same report both times.
      expect(readFileSync(summary, "utf8")).toBe(`## Earlier step\n\n${md.stdout}\n${md.stdout}`);
      for (const secret of secrets) {
        expect(md.stdout + md.stderr).not.toContain(secret);
        expect(readFileSync(summary, "utf8")).not.toContain(secret);
      }
      // A summary file in a directory that does not exist: an error naming the flag, before any API call.
      const calls = await requestsOf(async () => {
        const bad = await stack.drift(["--summary-file", join(dir, "missing", "s.md")], { stackConfigOnly: true });
        expect(bad.code).toBe(1);
        expect(bad.stdout).toBe("");
        expect(bad.stderr).toMatch(/^pulumi-cdc drift: --summary-file .*missing\/s\.md: the directory .*missing does not exist/);
      });
      expect(calls).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    await stack.up();
    expect((await drift(0)).clean).toBe(true);
    const after = await web.findOne("/destinations/{id}", destinationConnectorSchema, { params: { id } });
    expect(after!.config!["snowflake.schema.name"]).toBe("RAW");
  });

  it("exits 2 on a source paused outside Pulumi, and `pulumi up` (the hint) resumes it", async () => {
    const id = byType(await drift(0), "source").id;
    await web.put("/sources/{id}/pause", { params: { id } });

    const report = await drift(2);
    expect(byType(report, "source").drift).toMatchObject({ detected: true, maskedDiff: "", status: { desired: "active", live: "Paused", drifted: true } });
    const human = await stack.drift([], { stackConfigOnly: true });
    expect(human.stdout).toContain("    status: Paused, the program wants active\n");
    expect(human.stdout).toContain("Status changed: run `pulumi up`");

    await stack.up();
    expect((await drift(0)).clean).toBe(true);
    expect((await web.findOne("/sources/{id}", sourceConnectorSchema, { params: { id } }))!.connector_status).toBe("Active");
  });

  it("exits 2 on a destination deleted outside Pulumi, and `pulumi up --refresh` (the hint) creates it again", async () => {
    const before = byType(await drift(0), "destination");
    await web.delete("/destinations/{id}", { params: { id: before.id } });

    const report = await drift(2);
    expect(byType(report, "destination").drift).toEqual({ detected: true, deleted: true, maskedDiff: "", changedKeys: [] });
    const human = await stack.drift([], { stackConfigOnly: true });
    expect(human.stdout).toContain(`✗ destination ${before.name} (id ${before.id}): deleted outside Pulumi\n`);

    await stack.up(["--refresh"]);
    const after = byType(await drift(0), "destination");
    expect(after.id).not.toBe(before.id);
  });

  it("exits 2 on a tag edited outside Pulumi, and `pulumi up --refresh` (the hint) puts it back", async () => {
    const tag = byType(await drift(0), "tag");
    await web.put("/tags/{id}", { params: { id: tag.id }, body: { name: tag.name, description: "edited in the console", type: ["sources"] } });

    const report = await drift(2);
    expect(byType(report, "tag").drift).toMatchObject({ detected: true, maskedDiff: 'description was changed to "edited in the console"\ntype was changed to [sources]' });
    expect(byType(report, "source").drift.detected).toBe(false);
    const human = await stack.drift([], { stackConfigOnly: true });
    expect(human.stdout).toContain(`✗ tag ${tag.name} (id ${tag.id}): drift\n    description was changed to "edited in the console"\n`);
    expect(human.stdout).toContain("Tag changed: run `pulumi up --refresh` to put the program's version back");
    expect(human.stdout).not.toContain("Config changed");

    await stack.up(["--refresh"]);
    expect((await drift(0)).clean).toBe(true);
  });

  it("exits 1 with Pulumi's message, and no stack trace, for an unknown stack or a wrong passphrase", async () => {
    const unknown = await runCdc(["drift", "--stack", "no-such-stack", "--cwd", FIXTURE, "--json"], { env: cliEnv });
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toMatch(/^pulumi-cdc drift: .*no stack named 'no-such-stack' found\n$/);

    // A wrong passphrase must fail rather than fall back to CDC_* variables for the client secret.
    const wrong = await stack.drift([], {
      stackConfigOnly: true,
      env: { PULUMI_CONFIG_PASSPHRASE: "not-the-passphrase", CDC_CLIENT_SECRET: emulator.clientSecret },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/incorrect passphrase/);
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
    expect(wrong.stderr).not.toContain(emulator.clientSecret);
  });
});
