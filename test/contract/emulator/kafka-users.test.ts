import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, expect422, expectDetail, openSession, tokenFor, type Session } from "./helpers.js";

let s: Session;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "cdc-emu-kafka-"));
  // A state file lets the tests check that passwords are not stored in plain.
  s = await openSession({ statePath: join(dir, "state.json") });
});
afterAll(async () => {
  await s?.emulator.stop();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** Usernames are at most 24 characters. */
const username = (prefix = "ku") => `${prefix}-${(++n).toString(36)}-${process.pid.toString(36)}`;

const readAcl = (topic: string) => ({ topic_name: topic, operation: "READ", resource_pattern_type: "LITERAL", resource: "TOPIC" });
/** An ACL as answers carry it: the topic under `name`. */
const answered = ({ topic_name, ...rest }: ReturnType<typeof readAcl>) => ({ name: topic_name, ...rest });

async function createUser(body: Record<string, unknown> = {}) {
  const reply = await s.api("POST", "/kafka-access/kafka-users", {
    body: {
      username: username(),
      password: "correct-horse-battery",
      kafka_acls: [readAcl("orders")],
      is_create_schema_registry: false,
      created_from: "terraform",
      ...body,
    },
  });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

async function listed(name: string) {
  const reply = await s.api("GET", "/kafka-access/kafka-users");
  expect(reply.status, reply.text).toBe(200);
  return (reply.body as any[]).find((u) => u.username === name);
}

describe("Kafka users", () => {
  it("creates a user: the password is never answered, the endpoints are the server's and derived from tenant and username", async () => {
    const name = username("Reader");
    const user = await createUser({ username: name, whitelist_ips: "10.0.0.0/8, 192.168.1.7", is_create_schema_registry: true });
    expect(user).toMatchObject({
      username: name,
      whitelist_ips: "10.0.0.0/8,192.168.1.7",
      is_create_schema_registry: true,
      kafka_acls: [answered(readAcl("orders"))],
      created_from: "terraform",
    });
    expect(user).not.toHaveProperty("password");
    const host = new RegExp(`^${name.toLowerCase()}\\.[0-9a-f]+\\.kafka\\.cdc\\.local:9092$`);
    expect(user.kafka_proxy_endpoint).toMatch(host);
    expect(user.schema_proxy_endpoint).toMatch(new RegExp(`^https://${name.toLowerCase()}\\.[0-9a-f]+\\.schema-registry\\.cdc\\.local$`));
    // Deterministic: the same user reads back with the same endpoints.
    expect(await listed(name)).toEqual(user);
    const state = readFileSync(join(dir, "state.json"), "utf8");
    expect(state).toContain(name);
    expect(state).not.toContain("correct-horse-battery");
  });

  it("lists users as a bare JSON array (no envelope), without passwords", async () => {
    const user = await createUser();
    const reply = await s.api("GET", "/kafka-access/kafka-users");
    expect(Array.isArray(reply.body)).toBe(true);
    expect(reply.body.map((u: any) => u.username)).toContain(user.username);
    expect(reply.text).not.toContain("password");
  });

  it("has no schema endpoint without a schema-registry user, defaults whitelist and resource", async () => {
    const user = await createUser({ kafka_acls: [{ topic_name: "orders", operation: "READ", resource_pattern_type: "PREFIXED" }] });
    expect(user).not.toHaveProperty("schema_proxy_endpoint");
    expect(user.whitelist_ips).toBe("");
    expect(user.kafka_acls).toEqual([{ name: "orders", operation: "READ", resource_pattern_type: "PREFIXED", resource: "TOPIC" }]);
  });

  it("treats ACLs as a set: duplicates collapse and the answer is in the server's order, not the request's", async () => {
    const acls = [readAcl("zeta"), { ...readAcl("cdc-readers"), resource: "GROUP" }, readAcl("alpha"), readAcl("zeta"), { ...readAcl("alpha"), operation: "DESCRIBE" }];
    const user = await createUser({ kafka_acls: acls });
    expect(user.kafka_acls).toEqual(
      [{ ...readAcl("cdc-readers"), resource: "GROUP" }, { ...readAcl("alpha"), operation: "DESCRIBE" }, readAcl("alpha"), readAcl("zeta")].map(answered),
    );
    // Sent back as read (`name`), the ACLs are taken as they are.
    const again = await s.api("PUT", `/kafka-access/kafka-users/${user.username}`, { body: { kafka_acls: user.kafka_acls } });
    expect(again.status, again.text).toBe(200);
    expect(again.body.kafka_acls).toEqual(user.kafka_acls);
  });

  it("a null ACL list is none", async () => {
    const user = await createUser({ kafka_acls: null });
    expect(user.kafka_acls).toEqual([]);
  });

  it("validates the username: 1-24 letters, digits and dashes, not starting or ending with a dash", async () => {
    const post = (u: unknown) => s.api("POST", "/kafka-access/kafka-users", { body: { username: u, password: "correct-horse-battery", kafka_acls: [] } });
    expect422(await post(""), { loc: ["body", "username"], type: "string_too_short" });
    expect422(await post("a".repeat(25)), { loc: ["body", "username"], type: "string_too_long" });
    for (const bad of ["-lead", "trail-", "under_score", "dot.ted", "sp ace"]) {
      expect422(await post(bad), { loc: ["body", "username"], type: "string_pattern_mismatch" });
    }
    // One alphanumeric character, and 24 characters, are fine.
    expect((await post("q")).status).toBe(200);
    const longest = `${username("m")}${"x".repeat(24)}`.slice(0, 24);
    expect((await post(longest)).status).toBe(200);
    expect422(await s.api("POST", "/kafka-access/kafka-users", { body: { password: "correct-horse-battery", kafka_acls: [] } }), { loc: ["body", "username"], type: "missing" });
  });

  it("validates the password: required, 12-128 characters", async () => {
    const post = (password: unknown) => s.api("POST", "/kafka-access/kafka-users", { body: { username: username(), password, kafka_acls: [] } });
    expect422(await s.api("POST", "/kafka-access/kafka-users", { body: { username: username(), kafka_acls: [] } }), { loc: ["body", "password"], type: "missing" });
    expect422(await post("short"), { loc: ["body", "password"], type: "string_too_short" });
    expect422(await post("p".repeat(129)), { loc: ["body", "password"], type: "string_too_long" });
    expect((await post("p".repeat(12))).status).toBe(200);
    expect((await post("p".repeat(128))).status).toBe(200);
  });

  it("validates operations, pattern types and resources, and the GROUP operations", async () => {
    const post = (acl: Record<string, unknown>) =>
      s.api("POST", "/kafka-access/kafka-users", { body: { username: username(), password: "correct-horse-battery", kafka_acls: [readAcl("ok"), acl] } });
    const details = expect422(await post({ ...readAcl("t"), operation: "read" }), { loc: ["body", "kafka_acls", 1, "operation"], type: "enum" });
    expect(details[0]!.ctx?.expected).toContain("'DESCRIBE_CONFIGS'");
    expect422(await post({ ...readAcl("t"), resource_pattern_type: "MATCH" }), { loc: ["body", "kafka_acls", 1, "resource_pattern_type"], type: "enum" });
    expect422(await post({ ...readAcl("t"), resource: "CLUSTER" }), { loc: ["body", "kafka_acls", 1, "resource"], type: "enum" });
    expect422(await post({ ...readAcl("t"), resource: "GROUP", operation: "WRITE" }), { loc: ["body", "kafka_acls", 1, "operation"], type: "value_error" });
    expect422(await post({ operation: "READ", resource_pattern_type: "LITERAL" }), { loc: ["body", "kafka_acls", 1, "topic_name"], type: "missing" });
    expect422(await post({ ...readAcl(""), resource: "TOPIC" }), { loc: ["body", "kafka_acls", 1, "topic_name"], type: "string_too_short" });
    expect422(await s.api("POST", "/kafka-access/kafka-users", { body: { username: username(), password: "correct-horse-battery" } }), { loc: ["body", "kafka_acls"], type: "missing" });
    for (const op of ["DELETE", "DESCRIBE", "READ"]) expect((await post({ ...readAcl("grp"), resource: "GROUP", operation: op })).status).toBe(200);
  });

  it("validates the whitelist: IPs or CIDR ranges, comma-separated, at most 1000 characters", async () => {
    const post = (whitelist_ips: unknown) =>
      s.api("POST", "/kafka-access/kafka-users", { body: { username: username(), password: "correct-horse-battery", kafka_acls: [], whitelist_ips } });
    expect422(await post("10.0.0.1,not-an-ip"), { loc: ["body", "whitelist_ips"], type: "value_error" });
    expect422(await post("10.0.0.0/33"), { loc: ["body", "whitelist_ips"], type: "value_error" });
    expect422(await post("10.0.0.1,,10.0.0.2"), { loc: ["body", "whitelist_ips"], type: "value_error" });
    expect422(await post(Array.from({ length: 80 }, (_, i) => `10.0.${i}.1/32`).join(",")), { loc: ["body", "whitelist_ips"], type: "string_too_long" });
    expect422(await post(["10.0.0.1"]), { loc: ["body", "whitelist_ips"], type: "string_type" });
    const ok = await post("2001:db8::/32,10.1.2.3");
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.whitelist_ips).toBe("2001:db8::/32,10.1.2.3");
  });

  it("refuses a taken username with 409, also one differing only in case (the endpoints are host names)", async () => {
    const user = await createUser();
    const again = await s.api("POST", "/kafka-access/kafka-users", { body: { username: user.username, password: "another-password-1", kafka_acls: [] } });
    expectDetail(again, 409, /already exists/);
    const upper = await s.api("POST", "/kafka-access/kafka-users", { body: { username: user.username.toUpperCase(), password: "another-password-1", kafka_acls: [] } });
    expectDetail(upper, 409, new RegExp(`'${user.username}' already exists`));
  });

  it("PUT replaces whitelist, ACLs and schema registry; the password is kept unless sent", async () => {
    const user = await createUser({ whitelist_ips: "10.0.0.1" });
    const stateBefore = JSON.parse(readFileSync(join(dir, "state.json"), "utf8")).kafka_users[user.username].password_hash;
    const put = await s.api("PUT", `/kafka-access/kafka-users/${user.username}`, {
      body: { whitelist_ips: "10.0.0.2", kafka_acls: [readAcl("payments")], is_create_schema_registry: true },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ username: user.username, whitelist_ips: "10.0.0.2", kafka_acls: [answered(readAcl("payments"))], is_create_schema_registry: true });
    expect(put.body.schema_proxy_endpoint).toMatch(/schema-registry/);
    expect(put.body.kafka_proxy_endpoint).toBe(user.kafka_proxy_endpoint);
    const hashAfter = () => JSON.parse(readFileSync(join(dir, "state.json"), "utf8")).kafka_users[user.username].password_hash;
    expect(hashAfter()).toBe(stateBefore);
    // The platform's client leaves an empty whitelist out (omitempty): absent is none. A new password replaces the old one.
    const cleared = await s.api("PUT", `/kafka-access/kafka-users/${user.username}`, { body: { password: "a-brand-new-password", kafka_acls: [] } });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ whitelist_ips: "", kafka_acls: [], is_create_schema_registry: false });
    expect(cleared.body).not.toHaveProperty("schema_proxy_endpoint");
    expect(cleared.body).not.toHaveProperty("password");
    expect(hashAfter()).not.toBe(stateBefore);
    expect(readFileSync(join(dir, "state.json"), "utf8")).not.toContain("a-brand-new-password");
    // An empty password is the client's "unchanged".
    const same = await s.api("PUT", `/kafka-access/kafka-users/${user.username}`, { body: { password: "", kafka_acls: [] } });
    expect(same.status, same.text).toBe(200);
  });

  it("validates PUT bodies as creates are validated", async () => {
    const user = await createUser();
    const put = (body: unknown) => s.api("PUT", `/kafka-access/kafka-users/${user.username}`, { body });
    expect422(await put({ password: "short", kafka_acls: [] }), { loc: ["body", "password"] });
    expect422(await put({ whitelist_ips: "x", kafka_acls: [] }), { loc: ["body", "whitelist_ips"], type: "value_error" });
    expect422(await put({ kafka_acls: [{ ...readAcl("t"), operation: "READ_ALL" }] }), { loc: ["body", "kafka_acls", 0, "operation"], type: "enum" });
    expect422(await put({}), { loc: ["body", "kafka_acls"], type: "missing" });
    expect422(await put(undefined), { loc: ["body"], type: "missing" });
  });

  it("PUT and DELETE of an unknown user are 404; DELETE answers JSON and the user is gone", async () => {
    expectDetail(await s.api("PUT", "/kafka-access/kafka-users/nobody-here", { body: { kafka_acls: [] } }), 404, /Kafka user 'nobody-here' not found/);
    expectDetail(await s.api("DELETE", "/kafka-access/kafka-users/nobody-here"), 404, /not found/);
    const user = await createUser();
    const del = await s.api("DELETE", `/kafka-access/kafka-users/${user.username}`);
    expect(del.status, del.text).toBe(200);
    expect(del.body).toEqual({ username: user.username, deleted: true });
    expect(await listed(user.username)).toBeUndefined();
    expectDetail(await s.api("DELETE", `/kafka-access/kafka-users/${user.username}`), 404);
  });

  it("needs kafka_users permissions: viewers read, only writers write", async () => {
    const cred = await s.api("POST", "/auth/client-credentials", { body: { role_ids: ["role_viewer"] } });
    expect(cred.status, cred.text).toBe(200);
    const { accessToken } = await tokenFor(s.emulator, cred.body.client_id, cred.body.secret);
    const asViewer = (method: string, path: string, body?: unknown) => call(s.emulator.url, method, path, { token: accessToken, body });
    expect((await asViewer("GET", "/kafka-access/kafka-users")).status).toBe(200);
    expectDetail(await asViewer("POST", "/kafka-access/kafka-users", { username: username(), password: "correct-horse-battery", kafka_acls: [] }), 403, /kafka_users:write/);
    expect((await call(s.emulator.url, "GET", "/kafka-access/kafka-users")).status).toBe(401);
  });

  it("keeps users across a restart with the same state file", async () => {
    const user = await createUser();
    const restarted = await openSession({ statePath: join(dir, "state.json") });
    try {
      const reply = await restarted.api("GET", "/kafka-access/kafka-users");
      expect((reply.body as any[]).find((u) => u.username === user.username)).toEqual(user);
    } finally {
      await restarted.emulator.stop();
    }
  });
});
