import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, uniqueName, type Session } from "./helpers.js";
import { emulatorSnowflakeConfig } from "../../support/fixtures.js";

// The SMT chain routes over real HTTP, against the platform's wire fixture (wire_version 1, the
// vendor's internal/api/testdata/smt_wire_fixtures.json): its create and update requests, and
// the shapes of its read, conflict and validation answers.

const CREATE = {
  transforms: [
    { type: "regex_router", name: "Route orders", config: { regex: "(.*)_orders", replacement: "$1" } },
    {
      type: "mask_field",
      name: "Mask email",
      enabled: true,
      config: { fields_include: ["orders.email"] },
      secret_operations: [{ pointer: "/mask_salt", operation: "replace", value: "fixture-salt" }],
    },
  ],
};

let s: Session;
let destination: string;
const chain = (id = destination) => `/destinations/${id}/smt-chain`;

beforeAll(async () => {
  s = await openSession();
  const reply = await s.api("POST", "/destinations", { body: { name: uniqueName("smt"), connector: "snowflake", config: emulatorSnowflakeConfig(), created_from: "terraform" } });
  expect(reply.status, reply.text).toBeLessThan(300);
  destination = (reply.body as { id: string }).id;
});
afterAll(async () => s?.emulator.stop());

const detail = (reply: { body: unknown }) => (reply.body as { detail: { code: string; message: string; issues: Array<Record<string, unknown>> } }).detail;

describe("GET/PUT /destinations/{id}/smt-chain", () => {
  it("answers smt_chain_absent before any chain, and a plain 404 for a source or an unknown destination", async () => {
    const absent = await s.api("GET", chain());
    expect(absent.status).toBe(404);
    expect(detail(absent)).toMatchObject({ code: "smt_chain_absent", issues: [] });
    expect(detail(await s.api("GET", chain("nope"))).code).toBe("smt_connector_not_found");
    expect((await s.api("GET", `/sources/${destination}/smt-chain`)).body).toEqual({ detail: "Not Found" });
  });

  it("creates from the fixture's request: typed instances, defaults materialized, the salt only as a configured path", async () => {
    const created = await s.api("PUT", chain(), { body: CREATE });
    expect(created.status, created.text).toBe(200);
    const body = created.body as { desired: any; last_applied: unknown; application_status: string };
    expect(body.application_status).toBe("pending");
    expect(body.last_applied).toBeNull();
    expect(body.desired.deployment_generation).toBe(1);
    expect(body.desired.transforms[1]).toEqual({
      kind: "typed",
      id: expect.any(String),
      alias: "MaskField1",
      type: "mask_field",
      schema_version: 1,
      codec_version: 1,
      name: "Mask email",
      enabled: true,
      config: { fields_include: ["orders.email"], fields_exclude: [], mask_function: "SHA256_TRUNCATE", mask_char: "*", mask_fixed_value: "***", replace_null_with_default: true },
      configured_secret_paths: ["/mask_salt"],
      predicate: null,
    });
    expect(body.desired.transforms[0]).toMatchObject({ alias: "RegexRouter1", enabled: true, config: { regex: "(.*)_orders", replacement: "$1" } });
    expect(body.desired.order.filter((o: any) => o.origin === "user").map((o: any) => o.reference)).toEqual(body.desired.transforms.map((t: any) => t.id));
    expect(created.text).not.toContain("fixture-salt");
    const read = await s.api("GET", chain());
    expect((read.body as any).application_status).toBe("applied");
    expect((read.body as any).last_applied.chain_revision).toBe(body.desired.chain_revision);
  });

  it("guards writes by revision: required once a chain exists, stale is the fixture's conflict", async () => {
    const current = (await s.api("GET", chain())).body as any;
    const missing = await s.api("PUT", chain(), { body: { transforms: [] } });
    expect(missing.status).toBe(409);
    expect(detail(missing).code).toBe("smt_expected_revision_required");
    const stale = await s.api("PUT", chain(), { body: { expected_revision: "5b0b0774753288985bc61f593b27ee09", transforms: [] } });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({
      detail: {
        code: "smt_revision_conflict",
        message: "The chain changed since it was read; read it again before saving",
        issues: [{ code: "smt_revision_conflict", message: "expected revision is stale", instance_id: null, request_key: null, pointer: "/expected_revision" }],
      },
    });
    expect(((await s.api("GET", chain())).body as any).desired.chain_revision).toBe(current.desired.chain_revision);
  });

  it("updates as the fixture's update: ids keep identity, secrets and aliases; a new instance gets the next alias", async () => {
    const before = ((await s.api("GET", chain())).body as any).desired;
    const [a, b] = before.transforms;
    const updated = await s.api("PUT", chain(), {
      body: {
        expected_revision: before.chain_revision,
        transforms: [
          { id: b.id, type: "mask_field", name: "Mask email (renamed)", enabled: false, config: { fields_include: ["orders.email", "orders.phone"] } },
          { id: a.id, type: "regex_router", name: "Route orders", config: { regex: "(.*)_orders", replacement: "$1" } },
          { type: "regex_router", name: "Route refunds", config: { regex: "(.*)_refunds", replacement: "$1_returns" } },
        ],
      },
    });
    expect(updated.status, updated.text).toBe(200);
    const desired = (updated.body as any).desired;
    expect(desired.chain_revision).not.toBe(before.chain_revision);
    expect(desired.transforms.map((t: any) => [t.id === b.id || t.id === a.id ? "kept" : "new", t.alias, t.enabled, t.configured_secret_paths])).toEqual([
      ["kept", "MaskField1", false, ["/mask_salt"]],
      ["kept", "RegexRouter1", true, []],
      ["new", "RegexRouter2", true, []],
    ]);
    const cleared = await s.api("PUT", chain(), {
      body: { expected_revision: desired.chain_revision, transforms: [{ id: b.id, type: "mask_field", name: "m", config: { fields_include: ["x"] }, secret_operations: [{ pointer: "/mask_salt", operation: "clear" }] }] },
    });
    expect((cleared.body as any).desired.transforms[0].configured_secret_paths).toEqual([]);
  });

  it("refuses a bad chain with smt_validation_failed, each issue located, nothing saved", async () => {
    const before = ((await s.api("GET", chain())).body as any).desired;
    const bad = await s.api("PUT", chain(), {
      body: {
        expected_revision: before.chain_revision,
        transforms: [
          { id: "instance-gone", type: "regex_router", name: "r", config: { regex: "x" } },
          { type: "mask_field", name: "m", config: { fields_include: ["a"], mask_salt: "in-config" } },
          { type: "mask_field", name: "Mask", config: { fields_include: ["a,b"], mask_function: "ROT13" }, secret_operations: [{ pointer: "/salt", operation: "replace", value: "v" }] },
          { type: "rename", name: " ", config: {} },
        ],
      },
    });
    expect(bad.status).toBe(422);
    const d = detail(bad);
    expect(d.code).toBe("smt_validation_failed");
    expect(d.message).toBe("The chain was not saved; fix the issues and send it again");
    expect(d.issues.map((i) => [i.code, i.instance_id, i.request_key, i.pointer])).toEqual([
      ["smt_unknown_instance", "instance-gone", null, "/transforms/0/id"],
      ["smt_config_secret_in_config", null, "1", "/transforms/1/config/mask_salt"],
      ["smt_config_string_pattern_mismatch", null, "2", "/transforms/2/config/fields_include/0"],
      ["smt_config_enum", null, "2", "/transforms/2/config/mask_function"],
      ["smt_unknown_secret_path", null, "2", "/transforms/2/secret_operations/0/pointer"],
      ["smt_unknown_type", null, "3", "/transforms/3/type"],
      ["smt_name_invalid", null, "3", "/transforms/3/name"],
    ]);
    expect(bad.text).not.toContain("in-config");
    expect(((await s.api("GET", chain())).body as any).desired.chain_revision).toBe(before.chain_revision);
  });

  it("empties the user chain with transforms: [] and leaves it unchanged when transforms is omitted", async () => {
    const before = ((await s.api("GET", chain())).body as any).desired;
    const same = await s.api("PUT", chain(), { body: { expected_revision: before.chain_revision } });
    expect((same.body as any).desired.transforms.map((t: any) => t.id)).toEqual(before.transforms.map((t: any) => t.id));
    const emptied = await s.api("PUT", chain(), { body: { expected_revision: (same.body as any).desired.chain_revision, transforms: [] } });
    expect((emptied.body as any).desired.transforms).toEqual([]);
    expect((emptied.body as any).desired.managed.length).toBeGreaterThan(0);
  });
});
