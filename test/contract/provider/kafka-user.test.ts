import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aclOf, kafkaAclSchema, listKafkaUsers } from "../../../provider/kafka/api.js";
import { isIpOrCidr } from "../../../catalogue/ip.js";
import { kafkaUserFindings, KafkaUserProvider, sameAcls, type KafkaUserInputs, type KafkaUserOutputs } from "../../../provider/resources/kafkaUser.js";
import { MASK } from "../../../provider/normalize.js";
import { FAST_RETRIES, startHarness, type ProviderHarness } from "./harness.js";

const users = new KafkaUserProvider();
const PASSWORD = "kafka-pass-0001";

const read = (topic: string, more: Record<string, unknown> = {}) => ({ topicName: topic, operation: "READ", resourcePatternType: "LITERAL", ...more });

async function checked(news: Record<string, unknown>): Promise<KafkaUserInputs> {
  const { inputs, failures } = await users.check({}, { logicalName: "consumer", ...news });
  expect(failures).toEqual([]);
  return inputs as KafkaUserInputs;
}

let n = 0;
const username = () => `kp-${(++n).toString(36)}-${process.pid.toString(36)}`;

describe("KafkaUser provider against the emulator", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness({}, FAST_RETRIES);
  });
  afterAll(async () => h?.close());

  const liveUser = async (name: string) => (await listKafkaUsers(h.console)).find((u) => u.username === name);

  it("check() names every bad input, with the fix, before any API call", async () => {
    h.emulator.resetStats();
    const bad = await users.check({}, {
      logicalName: "x",
      username: "-bad_name-",
      password: "short",
      whitelistIps: ["10.0.0.1", "not-an-ip", "10.0.0.0/40"],
      isCreateSchemaRegistry: "yes",
      kafkaAcls: [
        read("orders", { operation: "read" }),
        read("orders", { resourcePatternType: "EXACT" }),
        read("cdc-group", { resource: "GROUP", operation: "WRITE" }),
        read("orders", { resource: "CLUSTER" }),
        { operation: "READ", resourcePatternType: "LITERAL" },
      ],
    });
    const byProperty = Object.fromEntries(bad.failures.map((f) => [f.property, f.reason]));
    expect(Object.keys(byProperty).sort()).toEqual(
      [
        "isCreateSchemaRegistry",
        "kafkaAcls[0].operation",
        "kafkaAcls[1].resourcePatternType",
        "kafkaAcls[2].operation",
        "kafkaAcls[3].resource",
        "kafkaAcls[4].topicName",
        "password",
        "username",
        "whitelistIps[1]",
        "whitelistIps[2]",
      ].sort(),
    );
    expect(byProperty.username).toMatch(/letters, digits and dashes/);
    expect(byProperty.password).toBe("must be at least 12 characters");
    expect(byProperty["kafkaAcls[0].operation"]).toMatch(/must be one of ALL, ALTER, .* WRITE/);
    expect(byProperty["kafkaAcls[2].operation"]).toMatch(/DELETE, DESCRIBE, READ for a GROUP rule/);
    expect(byProperty["whitelistIps[1]"]).toMatch(/IPv4 or IPv6 address or CIDR range/);

    const more = await users.check({}, { logicalName: "x", username: "a".repeat(25), password: "p".repeat(129) });
    expect(more.failures).toEqual([
      { property: "username", reason: "must be at most 24 characters" },
      { property: "password", reason: "must be at most 128 characters" },
    ]);
    const missing = await users.check({}, { logicalName: "x" });
    expect(missing.failures.map((f) => f.property).sort()).toEqual(["password", "username"]);
    const mask = await users.check({}, { logicalName: "x", username: "ok", password: MASK });
    expect(mask.failures).toEqual([{ property: "password", reason: expect.stringMatching(/placeholder, not a password/) }]);
    const wide = await users.check({}, { logicalName: "x", username: "ok", password: PASSWORD, whitelistIps: Array.from({ length: 80 }, (_, i) => `10.0.${i}.1/32`) });
    expect(wide.failures).toEqual([{ property: "whitelistIps", reason: expect.stringMatching(/at most 1000/) }]);
    expect(h.emulator.stats().total).toBe(0);
  });

  it("reads an ACL's topic from `name` (as answers carry it) or from `topic_name`", () => {
    const acl = { operation: "READ", resource_pattern_type: "LITERAL" };
    expect(aclOf(kafkaAclSchema.parse({ ...acl, name: "orders" })).topicName).toBe("orders");
    expect(aclOf(kafkaAclSchema.parse({ ...acl, topic_name: "orders" })).topicName).toBe("orders");
    expect(kafkaAclSchema.safeParse(acl).success).toBe(false);
  });

  it("check() fills in the defaults and makes the ACLs a set", async () => {
    const inputs = await checked({ username: "ok", password: PASSWORD, kafkaAcls: [read("a"), read("a", { resource: "TOPIC" }), read("b")], whitelistIps: [" 10.0.0.1 ", "10.0.0.1"] });
    expect(inputs).toEqual({
      logicalName: "consumer",
      username: "ok",
      password: PASSWORD,
      whitelistIps: ["10.0.0.1"],
      isCreateSchemaRegistry: false,
      kafkaAcls: [read("a", { resource: "TOPIC" }), read("b", { resource: "TOPIC" })],
    });
    expect(isIpOrCidr("2001:db8::/48")).toBe(true);
    expect(isIpOrCidr("2001:db8::/129")).toBe(false);
    expect(sameAcls([read("a", { resource: "TOPIC" }) as never, read("b", { resource: "TOPIC" }) as never], [read("b", { resource: "TOPIC" }) as never, read("a", { resource: "TOPIC" }) as never])).toBe(true);
  });

  it("creates, reads with no diff, updates the password in place (sent only when changed), and deletes", async () => {
    const name = username();
    const inputs = await checked({
      username: name,
      password: PASSWORD,
      whitelistIps: ["10.0.0.0/8"],
      isCreateSchemaRegistry: true,
      // The server answers ACLs in its own order: no diff either way.
      kafkaAcls: [read("orders"), read("cdc-readers", { resource: "GROUP" }), read("public.", { resourcePatternType: "PREFIXED", operation: "DESCRIBE" })],
    });
    const { id, outs } = await users.create(inputs);
    expect(id).toBe(name);
    expect(outs.kafkaProxyEndpoint).toMatch(new RegExp(`^${name}\\..*:9092$`));
    expect(outs.schemaProxyEndpoint).toMatch(/^https:\/\//);
    // Outputs go back to the program (and into --debug logs): a digest only, never the password.
    expect(JSON.stringify(outs)).not.toContain(PASSWORD);
    expect(outs).not.toHaveProperty("password");
    expect(await users.diff(id, outs, inputs)).toMatchObject({ changes: false, replaces: [] });

    const refreshed = await users.read(id, outs);
    expect(refreshed.id).toBe(name);
    // Nothing moved: the engine keeps the stack's inputs (with the program's password).
    expect(refreshed.inputs).toBeUndefined();
    expect(refreshed.props).toMatchObject({ kafkaAcls: outs.kafkaAcls, whitelistIps: ["10.0.0.0/8"], passwordDigest: outs.passwordDigest });

    // A new password: an in-place update, not a replacement.
    const rotated = { ...inputs, password: "kafka-pass-0002" };
    expect(await users.diff(id, outs, rotated)).toMatchObject({ changes: true, replaces: [], diffs: ["password"] });
    h.emulator.resetStats();
    const { outs: after } = await users.update(id, outs, rotated);
    expect(after.passwordDigest).not.toBe(outs.passwordDigest);
    expect((await users.diff(id, after, rotated)).changes).toBe(false);

    // Another change leaves the password out of the PUT (the API keeps it).
    const fewer = { ...rotated, kafkaAcls: [rotated.kafkaAcls[0]!], isCreateSchemaRegistry: false, whitelistIps: [] };
    expect(await users.diff(id, after, fewer)).toMatchObject({ changes: true, diffs: ["isCreateSchemaRegistry", "kafkaAcls", "whitelistIps"] });
    const { outs: last } = await users.update(id, after, fewer);
    expect(last.schemaProxyEndpoint).toBe("");
    expect(await liveUser(name)).toMatchObject({ whitelist_ips: "", kafka_acls: [{ name: "orders", operation: "READ" }], is_create_schema_registry: false });
    expect((await users.diff(id, last, fewer)).changes).toBe(false);

    // A new username replaces the user.
    expect(await users.diff(id, last, { ...fewer, username: `${name}-2` })).toMatchObject({ changes: true, replaces: ["username"], deleteBeforeReplace: false });
    expect(await users.diff(id, last, { ...fewer, username: name.toUpperCase() })).toMatchObject({ replaces: ["username"], deleteBeforeReplace: true });

    await users.delete(id, last);
    expect(await liveUser(name)).toBeUndefined();
    expect((await users.read(id, last)).id).toBe("");
    await users.delete(id, last);
  });

  it("drift: ACLs, IPs and the schema-registry user edited outside Pulumi show in diff, and a refresh reads them", async () => {
    const name = username();
    const inputs = await checked({ username: name, password: PASSWORD, whitelistIps: ["10.0.0.1"], kafkaAcls: [read("orders")] });
    const { id, outs } = await users.create(inputs);
    // The console: one more ACL, another IP.
    await h.console.put("/kafka-access/kafka-users/{u}", {
      params: { u: name },
      body: { whitelist_ips: "10.0.0.1,192.0.2.4", kafka_acls: [{ topic_name: "orders", operation: "READ", resource_pattern_type: "LITERAL", resource: "TOPIC" }, { topic_name: "payments", operation: "WRITE", resource_pattern_type: "LITERAL", resource: "TOPIC" }], is_create_schema_registry: true },
    });
    const diff = await users.diff(id, outs, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [], diffs: ["isCreateSchemaRegistry", "kafkaAcls", "whitelistIps"] });
    expect(kafkaUserFindings(await liveUser(name), outs).findings).toEqual([
      "ACLs were changed: added WRITE on TOPIC payments",
      "whitelist IPs were changed to 10.0.0.1, 192.0.2.4",
      "its schema-registry user was added",
    ]);
    const refreshed = await users.read(id, outs);
    expect(refreshed.inputs).toMatchObject({ whitelistIps: ["10.0.0.1", "192.0.2.4"], isCreateSchemaRegistry: true, password: MASK });
    expect((refreshed.props as KafkaUserOutputs).kafkaAcls).toHaveLength(2);
    // The refreshed digest still knows the program's password: only the ACLs, IPs and registry change back.
    const back = await users.diff(id, refreshed.props as KafkaUserOutputs, inputs);
    expect(back.diffs).toEqual(["isCreateSchemaRegistry", "kafkaAcls", "whitelistIps"]);
    await users.update(id, refreshed.props as KafkaUserOutputs, inputs);
    expect(await liveUser(name)).toMatchObject({ whitelist_ips: "10.0.0.1", kafka_acls: [{ name: "orders" }], is_create_schema_registry: false });
    // Deleted outside Pulumi: a change, and refresh drops it.
    await h.console.delete("/kafka-access/kafka-users/{u}", { params: { u: name } });
    expect((await users.diff(id, outs, inputs)).changes).toBe(true);
    expect((await users.read(id, outs)).id).toBe("");
    await expect(users.update(id, outs, inputs)).rejects.toThrow(/no longer exists: it was deleted outside Pulumi/);
  });

  it("a create whose answer is lost is found by username: no 409, no duplicate", async () => {
    const name = username();
    const inputs = await checked({ username: name, password: PASSWORD, kafkaAcls: [read("orders")] });
    h.emulator.resetStats();
    h.emulator.setFaults({ loseNext: 1, routes: ["/kafka-access"] });
    const { id, outs } = await users.create(inputs).finally(() => h.emulator.setFaults({ loseNext: 0, routes: ["/"] }));
    expect(h.emulator.stats().faults.lost).toBe(1);
    expect(id).toBe(name);
    expect(outs.kafkaProxyEndpoint).not.toBe("");
    expect((await listKafkaUsers(h.console)).filter((u) => u.username === name)).toHaveLength(1);
    expect((await users.diff(id, outs, inputs)).changes).toBe(false);
    await users.delete(id, outs);
  });

  it("a 5xx on create is retried through the lookup; a name taken by someone else is a clear error", async () => {
    const name = username();
    const inputs = await checked({ username: name, password: PASSWORD });
    h.emulator.setFaults({ failNext: 1, routes: ["/kafka-access"] });
    const { id, outs } = await users.create(inputs).finally(() => h.emulator.setFaults({ failNext: 0, routes: ["/"] }));
    expect(id).toBe(name);
    // The console made one under this name: not Pulumi's, so not taken over.
    const other = username();
    await h.console.post("/kafka-access/kafka-users", { body: { username: other, password: PASSWORD, kafka_acls: [], created_from: "web" } });
    await expect(users.create(await checked({ username: other, password: PASSWORD }))).rejects.toThrow(/already exists.*Kafka usernames are unique.*remove the existing one/);
    // One made by IaC under this name (a run killed before it recorded it): the error names pulumi-cdc recover.
    await expect(users.create(inputs)).rejects.toThrow(/created by an IaC tool \(created_from "terraform"\).*run `npx pulumi-cdc recover --stack [^`]+`/);
    await users.delete(id, outs);
  });

  it("import (the plugin's read with no state) writes what a program sets: the placeholder for the password, no defaults", async () => {
    const name = username();
    await h.console.post("/kafka-access/kafka-users", { body: { username: name, password: PASSWORD, kafka_acls: [{ topic_name: "orders", operation: "READ", resource_pattern_type: "LITERAL" }] } });
    const imported = await users.read(name, {});
    expect(imported.inputs).toEqual({ username: name, password: MASK, kafkaAcls: [{ topicName: "orders", operation: "READ", resourcePatternType: "LITERAL", resource: "TOPIC" }] });
    expect((imported.props as KafkaUserOutputs).passwordDigest).toBe("");
    // The program's password is taken as the one the API holds: no change until something else changes.
    const program = await checked({ username: name, password: PASSWORD, kafkaAcls: [read("orders")] });
    expect((await users.diff(name, imported.props as KafkaUserOutputs, program)).changes).toBe(false);
    await users.delete(name, imported.props as KafkaUserOutputs);
  });
});
