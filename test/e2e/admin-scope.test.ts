import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { sourceConnectorSchema } from "../../provider/client/index.js";
import { emulatorPgSourceConfig } from "../support/fixtures.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { ConsoleClient, consoleEdit, webClient } from "../support/web.js";

// Issue 40, point 4: a platform operator's stack manages another tenant's source through
// cdc:adminTenantId, as a user runs it: a preview, a `pulumi up` killed once the source exists
// (by count: its pause is held unanswered), `pulumi-cdc recover` finding the source in that
// tenant, a plain `pulumi up`, an empty preview, `pulumi-cdc drift` (clean, then a console edit
// in that tenant found), `pulumi-cdc import` reading that tenant, and destroy. Nothing of the
// stack ever shows in the operator's own tenant, and what is there is never touched.

const B = { clientId: "tenant-b", clientSecret: "tenant-b-secret" };

describe("a stack with cdc:adminTenantId manages a second tenant's source", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let stack: TestStack;
  let ownerB: ConsoleClient;
  let own: ConsoleClient;
  let tenantB: string;
  let work: string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, tenants: [B], operators: ["cdc-local"] });
    tenantB = emulator.tenantOf(B.clientId)!.tenantId;
    ownerB = webClient({ url: emulator.url, ...B });
    own = webClient(emulator);
    work = await mkdtemp(join(tmpdir(), "pulumi-cdc-admin-scope-"));
    // The operator's own tenant holds a source: never the stack's, never touched.
    await own.post("/sources", { body: { name: "own-orders", connector: "postgresql", config: emulatorPgSourceConfig() } });
    stack = await TestStack.create(join(__dirname, "fixtures", "admin-scope"), { stackName: `admin-scope-${process.pid}` });
    // The operator's credential, the other tenant named in the stack's config only.
    await stack.useApi(emulator, { "cdc:adminTenantId": tenantB }, { dbPassword: "tenant-b-db-secret" });
  });
  afterAll(async () => {
    await stack?.cleanup();
    await ownerB?.close();
    await own?.close();
    await emulator?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const sourcesOf = async (client: ConsoleClient) => (await client.listAll("/sources", {}, sourceConnectorSchema)).map((s) => ({ id: s.id, name: s.name, status: s.connector_status }));

  it("previews, survives a killed up through recover, goes up, previews empty, reports drift, imports and is destroyed in that tenant", async () => {
    const ownBefore = await sourcesOf(own);

    const first = await stack.preview();
    expect(first.stdout).toMatch(/\+ 2 to create/);

    // Killed once the source exists in tenant B, its pause sent and held unanswered.
    expect(await stack.killWhenHeld(emulator.hold("PUT /sources/:source_id/pause", 0)), "the up ended before its pause").toBe(true);
    const [made] = await sourcesOf(ownerB);
    expect(made).toMatchObject({ name: expect.stringMatching(/^orders-/), status: "Active" });

    const recovered = await stack.cli(["recover", "--yes"]);
    expect(recovered.code, recovered.output).toBe(0);
    // Found by its name in tenant B: in the operator's own tenant there is no such source.
    expect(recovered.output).toMatch(new RegExp(`adopt\\s+orders \\(creating\\): found source "${made!.name}" \\(${made!.id}\\)`));

    const up = await stack.up();
    expect(up.output).not.toMatch(/\b409\b|already exists/);
    const { id } = (await stack.outputs()) as { id: string };
    expect(id).toBe(made!.id);
    expect(await sourcesOf(ownerB)).toEqual([{ id, name: made!.name, status: "Paused" }]);
    expect(await sourcesOf(own)).toEqual(ownBefore);

    await stack.preview(["--expect-no-changes"]);

    const clean = await stack.drift([], { stackConfigOnly: true });
    expect(clean.code, clean.output).toBe(0);
    await consoleEdit(ownerB, "source", id, { config: { "table.include.list.user.defined": "public.orders,public.refunds" } });
    const drifted = await stack.drift([], { stackConfigOnly: true });
    expect(drifted.code, drifted.output).toBe(2);
    expect(drifted.output).toContain("table.include.list.user.defined");

    const out = join(work, "tenant-b");
    const imported = await stack.cli(["import", "--out", out, "--kind", "source", "--cwd", stack.programDir], { stackConfigOnly: true });
    expect(imported.code, imported.output).toBe(0);
    expect(imported.output).toContain(`pulumi config set cdc:adminTenantId ${tenantB}`);
    const program = await readFile(join(out, "index.ts"), "utf8");
    expect(program).toContain(`adoptId: "${id}"`);
    expect(program).not.toContain(ownBefore[0]!.id);
    expect(await readFile(join(out, "README.md"), "utf8")).toContain(`pulumi config set cdc:adminTenantId ${tenantB}`);

    await stack.destroy();
    expect(await sourcesOf(ownerB)).toEqual([]);
    expect(await sourcesOf(own)).toEqual(ownBefore);
  });
});
