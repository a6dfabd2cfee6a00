import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { installPolicyPack, npmPack, POLICY_DIR } from "../../scripts/release/npm-package.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { plain, REPO_ROOT, yamlProgram } from "../support/yaml.js";

// The policy pack (policy/, docs/policies.md) under the real engine: `pulumi preview --policy-pack`
// and `pulumi up --policy-pack` on both hosts. Few stacks, many resources: one TypeScript program
// holds a violation of every policy (or, with `fixed`, none), one YAML program the mandatory ones.

const PACK = join(REPO_ROOT, "policy");
const fixture = (name: string) => join(__dirname, "fixtures", name);

describe("the CDC policy pack under the real engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  const cleanups: Array<() => Promise<void>> = [];
  /** Requests since the last reset, token requests aside. */
  const apiRequests = () => Object.fromEntries(Object.entries(emulator.stats().requests).filter(([route]) => !route.startsWith("POST /auth/access-token")));
  /**
   * The violations a `preview --diff` printed, each as `[level] policy (type: name) description message`:
   * in that form the engine prints each under its resource, as `<pack>@v<version> [level]  <policy>  (<type>: <name>)<description>`
   * and the message on the next line.
   */
  const violations = (output: string) =>
    [...plain(output).matchAll(/pulumi-cdc@v[\d.]+ \[(\w+)\]\s+(\S+)\s+\(([^)]*)\)(.*)\n(.*)/g)].map(([, level, policy, where, description, message]) =>
      `[${level}] ${policy} (${where}) ${description} ${message}`.replace(/\s+/g, " ").trim(),
    );

  async function stack(dir: string, stackName: string): Promise<TestStack> {
    const s = await TestStack.create(dir, { stackName });
    cleanups.push(() => s.cleanup());
    await s.useApi(emulator);
    return s;
  }

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await emulator?.stop();
  });

  it("TypeScript (dynamic classes): a preview fails on each mandatory violation and warns on each advisory one, naming the resource, the property and the fix, with no API call; policy config changes the levels; the fixed program previews and deploys", async () => {
    // A stack name matching the wildcard policy's default pattern, prod*.
    const s = await stack(fixture("policy-violations-ts"), "prod-policy");
    emulator.resetStats();
    const preview = await s.preview(["--policy-pack", PACK], { allowFailure: true });
    expect(preview.code, preview.output).not.toBe(0);
    const found = violations(preview.output);
    const one = (text: string) => expect(found.filter((v) => v.includes(text)), `${text} in:\n${found.join("\n")}`).toHaveLength(1);
    // The pack compares sources in URN order: `orders` is named against `audit`.
    expect(found.filter((v) => v.startsWith("[mandatory] cdc-no-shared-replication-slot (pulumi-nodejs:dynamic/cdc:Source: orders) No two sources"))).toHaveLength(2);
    one(`source "orders" (pulumi-nodejs:dynamic/cdc:Source): config["slot.name"] is "orders_slot", the same replication slot as source "audit" on the same database server (orders-db.internal, 5432, shop)`);
    one(`config["publication.name"] is "orders_slot_pub", the same publication as source "audit"`);
    one(`[mandatory] cdc-no-admin-client-credentials (pulumi-nodejs:dynamic/cdc:ClientCredential: downstream)`);
    one(`roleIds includes "role_admin", an admin role`);
    one(`[mandatory] cdc-no-wildcard-include-lists (pulumi-nodejs:dynamic/cdc:Source: audit)`);
    one(`config["table.include.list.user.defined"] has the wildcard "public.*" on stack "prod-policy"`);
    one(`[advisory] cdc-hard-delete-needs-allow (pulumi-nodejs:dynamic/cdc:Destination: warehouse)`);
    one(`config["delete.enabled"] is true, so rows deleted at the source are deleted here too. Fix: set it to false, or allow it explicitly`);
    one(`[advisory] cdc-pipeline-same-environment (pulumi-nodejs:dynamic/cdc:Pipeline: orders-to-warehouse)`);
    one(`its source "orders" carries production and its destination "warehouse" carries development`);
    // Passwords written in plain: named, never shown.
    for (const [resource, key] of [["orders", "database.password"], ["audit", "database.password"], ["warehouse", "connection.password"]]) {
      one(`[mandatory] cdc-no-plain-secrets (pulumi-nodejs:dynamic/cdc:${resource === "warehouse" ? "Destination" : "Source"}: ${resource}) No secret connector setting is given as a plain (non-secret) value. ${resource === "warehouse" ? "destination" : "source"} "${resource}" (pulumi-nodejs:dynamic/cdc:${resource === "warehouse" ? "Destination" : "Source"}): config["${key}"] is a secret setting given as a plain value`);
    }
    expect(preview.output).not.toContain("PLAIN-PASSWORD-7a1c");
    expect(found.every((v) => v.includes("Fix:")), found.join("\n")).toBe(true);
    expect(apiRequests()).toEqual({});

    // Policy config: the wildcard policy only advises, hard deletes are mandatory, tags are required.
    const config = join(s.programDir, "policy-config.prod-policy.json");
    cleanups.push(() => import("node:fs/promises").then((fs) => fs.rm(config, { force: true })));
    await writeFile(
      config,
      JSON.stringify({
        "cdc-no-wildcard-include-lists": "advisory",
        "cdc-hard-delete-needs-allow": { enforcementLevel: "mandatory" },
        "cdc-required-tags": { enforcementLevel: "advisory", tags: ["team-orders"] },
        "cdc-no-admin-client-credentials": { adminRoles: ["role_editor"] },
      }),
    );
    const configured = violations((await s.preview(["--policy-pack", PACK, "--policy-pack-config", config], { allowFailure: true })).output);
    expect(configured.filter((v) => v.startsWith("[advisory] cdc-no-wildcard-include-lists"))).toHaveLength(1);
    expect(configured.filter((v) => v.startsWith("[mandatory] cdc-hard-delete-needs-allow"))).toHaveLength(1);
    expect(configured.filter((v) => v.includes("carries none of the required tags (team-orders)"))).toHaveLength(4);
    expect(configured.filter((v) => v.includes("cdc-no-admin-client-credentials"))).toEqual([]);

    // The same program with every mistake fixed: the preview passes with no violation, and `up` deploys.
    await s.setConfigs({ fixed: "true" }, { dbPassword: "a-real-secret" });
    const clean = await s.preview(["--policy-pack", PACK]);
    expect(violations(clean.output)).toEqual([]);
    const up = await s.up(["--policy-pack", PACK]);
    expect(plain(up.output)).toMatch(/\+ 8 created/);
  });

  it("YAML (provider plugin): a preview fails on two typed sources on the default slot and a generic Source on a typed one's slot, on passwords written in plain and on an admin credential, with no API call; deployed without the pack, the plain-secret record makes no diff", async () => {
    const program = await yamlProgram(fixture("policy-violations-yaml"));
    cleanups.push(() => program.dispose());
    const s = await stack(program.dir, "policy-yaml");
    emulator.resetStats();
    const preview = await s.preview(["--policy-pack", PACK], { allowFailure: true });
    expect(preview.code, preview.output).not.toBe(0);
    const found = violations(preview.output);
    const one = (text: string) => expect(found.filter((v) => v.includes(text)), `${text} in:\n${found.join("\n")}`).toHaveLength(1);
    // In URN order: `orders` (cdc:index:Source) first, then inventory, returns, returnsSlotOwner.
    one(
      `source "returns" (cdc:sources:Postgresql): slotName (the platform's "slot.name") is "streamkap_pgoutput_slot" (the platform's default: the program leaves it unset), the same replication slot as source "inventory"`,
    );
    one(`source "inventory" (cdc:sources:Postgresql): publicationName (the platform's "publication.name") is "streamkap_pub" (the platform's default: the program leaves it unset), the same publication as source "orders"`);
    one(`source "returnsSlotOwner" (cdc:sources:Postgresql): slotName (the platform's "slot.name") is "returns_slot", the same replication slot as source "orders"`);
    one(`[mandatory] cdc-no-admin-client-credentials (cdc:index:ClientCredential: reporting)`);
    // A password written in plain in a generic Source's config map. The typed sources' plain
    // `databasePassword` is not caught: the schema declares it secret, so pulumi-yaml (as every
    // generated SDK) makes it a secret before the plugin sees it (docs/policies.md).
    one(`source "orders" (cdc:index:Source): config["database.password"] is a secret setting given as a plain value`);
    expect(found.filter((v) => v.includes("cdc-no-plain-secrets"))).toHaveLength(1);
    expect(found).toHaveLength(5);
    expect(preview.output).not.toContain("PLAIN-YAML-PASSWORD-3f9b");
    expect(apiRequests()).toEqual({});

    // Without the pack the program deploys; the names the plugin records (checked inputs) are in
    // the state, the passwords only encrypted, and they make no diff on the next preview.
    await s.up();
    const state = await s.exportState();
    expect(state).toContain("plainSecretInputs");
    expect(state).not.toContain("PLAIN-YAML-PASSWORD-3f9b");
    await s.preview(["--expect-no-changes"]);
  });

  it("passes on examples/pipeline and examples/quickstart unchanged", async () => {
    // Each example's secrets, under its config namespace.
    for (const [example, namespace] of [["pipeline", ""], ["quickstart", "quickstart:"]] as const) {
      const s = await stack(join(REPO_ROOT, "examples", example), `policy-${example}`);
      await s.setConfigs({}, { [`${namespace}dbPassword`]: "example-secret", [`${namespace}snowflakePrivateKey`]: "example-key" });
      const preview = await s.preview(["--policy-pack", PACK]);
      expect(violations(preview.output).filter((v) => v.startsWith("[mandatory]")), preview.output).toEqual([]);
      await s.dispose();
    }
  });
  it("the pack installed from the release's tarballs into an empty folder runs from there: a YAML preview fails on an admin credential, with no API call", async () => {
    // As `npm run release -- --dry-run` packs and installs them (scripts/release/npm-package.ts).
    const out = await mkdtemp(join(tmpdir(), "pulumi-cdc-policy-pack-"));
    cleanups.push(() => rm(out, { recursive: true, force: true }));
    const sdk = await npmPack(REPO_ROOT, out);
    const pack = await npmPack(join(REPO_ROOT, POLICY_DIR), out);
    const installed = await installPolicyPack(REPO_ROOT, sdk.file, pack.file);
    cleanups.push(() => rm(installed.project, { recursive: true, force: true }));
    expect(installed.pack.startsWith(installed.project)).toBe(true);
    const program = await yamlProgram(fixture("policy-installed-yaml"));
    cleanups.push(() => program.dispose());
    const s = await stack(program.dir, "policy-installed");
    emulator.resetStats();
    const preview = await s.preview(["--policy-pack", installed.pack], { allowFailure: true });
    expect(preview.code, preview.output).not.toBe(0);
    const found = violations(preview.output);
    expect(found.filter((v) => v.startsWith("[mandatory] cdc-no-admin-client-credentials (cdc:index:ClientCredential: downstream)")), found.join("\n")).toHaveLength(1);
    expect(apiRequests()).toEqual({});
  });
});
