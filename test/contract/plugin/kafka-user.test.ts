import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDriftSink } from "../../../provider/drift.js";
import { listKafkaUsers } from "../../../provider/kafka/api.js";
import { provproto } from "../../../plugin/proto.js";
import { checkRequest, createRequest, deleteRequest, diffRequest, failuresOf, plain, readRequest, secret, startPluginHarness, UNKNOWN, updateRequest, type PluginHarness } from "./harness.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Props = Record<string, any>;

const Changes = provproto.DiffResponse.DiffChanges;
const Kind = provproto.PropertyDiff.Kind;
const TYPE = "cdc:index:KafkaUser";
const PASSWORD = "plugin-kafka-pass-1";

function detailed(resp: any): Record<string, number> {
  const out: Record<string, number> = {};
  resp.getDetaileddiffMap().forEach((d: any, path: string) => {
    out[path] = d.getKind();
  });
  return out;
}

describe("KafkaUser over gRPC", () => {
  let h: PluginHarness;
  const drift: string[] = [];
  beforeAll(async () => {
    setDriftSink((text) => drift.push(text));
    h = await startPluginHarness();
  });
  afterAll(async () => {
    setDriftSink((text) => process.stderr.write(text));
    await h?.close();
  });

  const checked = async (news: Props, olds: Props = {}) => {
    const resp = await h.call("check", checkRequest(TYPE, "reader", news, olds));
    expect(failuresOf(resp)).toEqual([]);
    return plain(resp.getInputs());
  };

  it("Check names each bad property with no API call, and wraps the password as a secret even when sent plain", async () => {
    const before = h.emulator.stats().total;
    const bad = await h.call("check", checkRequest(TYPE, "reader", { username: "no_underscores", password: "short", kafkaAcls: [{ topicName: "t", operation: "READ_ALL", resourcePatternType: "LITERAL" }] }));
    expect(failuresOf(bad).map((f) => f.property).sort()).toEqual(["kafkaAcls[0].operation", "password", "username"]);
    expect(h.emulator.stats().total).toBe(before);
    const inputs = await checked({ username: "orders-reader", password: PASSWORD });
    expect(inputs.password).toEqual(secret(PASSWORD));
    expect(inputs).toMatchObject({ whitelistIps: [], isCreateSchemaRegistry: false, kafkaAcls: [] });
    expect(inputs).not.toHaveProperty("logicalName");
  });

  it("Create (preview and real), Diff of a console edit with detailedDiff, Read, Update, Read for import, Delete", async () => {
    const acl = { topicName: "orders", operation: "READ", resourcePatternType: "LITERAL" };
    const inputs = await checked({ username: "grpc-reader", password: secret(PASSWORD), whitelistIps: ["10.1.0.0/16"], kafkaAcls: [acl] });
    const planned = plain((await h.call("create", createRequest(TYPE, "reader", inputs, true))).getProperties());
    expect(planned.kafkaProxyEndpoint).toBe(UNKNOWN);

    const created = await h.call("create", createRequest(TYPE, "reader", inputs));
    expect(created.getId()).toBe("grpc-reader");
    const outs = plain(created.getProperties());
    expect(outs).toMatchObject({ username: "grpc-reader", kafkaAcls: [{ ...acl, resource: "TOPIC" }], kafkaProxyEndpoint: expect.stringMatching(/^grpc-reader\./), createdFrom: "terraform" });
    expect(outs).not.toHaveProperty("password");
    expect(JSON.stringify(outs)).not.toContain(PASSWORD);
    expect((await h.call("diff", diffRequest(TYPE, "reader", "grpc-reader", outs, inputs, inputs))).getChanges()).toBe(Changes.DIFF_NONE);

    // The console adds a WRITE rule: the preview row names kafkaAcls.
    await h.newOperation();
    await h.console.put("/kafka-access/kafka-users/{u}", {
      params: { u: "grpc-reader" },
      body: { whitelist_ips: "10.1.0.0/16", kafka_acls: [{ topic_name: "orders", operation: "READ", resource_pattern_type: "LITERAL" }, { topic_name: "orders", operation: "WRITE", resource_pattern_type: "LITERAL" }], is_create_schema_registry: false },
    });
    const drifted = await h.call("diff", diffRequest(TYPE, "reader", "grpc-reader", outs, inputs, inputs));
    expect(drifted.getChanges()).toBe(Changes.DIFF_SOME);
    expect(detailed(drifted)).toEqual({ kafkaAcls: Kind.UPDATE });
    expect(drift.join("")).toContain("ACLs were changed: added WRITE on TOPIC orders");

    const read = await h.call("read", readRequest(TYPE, "reader", "grpc-reader", outs, inputs));
    expect(plain(read.getProperties()).kafkaAcls).toHaveLength(2);
    const readInputs = plain(read.getInputs());
    expect(readInputs.password).toEqual(secret("********"));

    const updated = plain((await h.call("update", updateRequest(TYPE, "reader", "grpc-reader", plain(read.getProperties()), inputs))).getProperties());
    expect(updated.kafkaAcls).toEqual([{ ...acl, resource: "TOPIC" }]);
    expect((await listKafkaUsers(h.console)).find((u) => u.username === "grpc-reader")?.kafka_acls).toHaveLength(1);

    // `pulumi import cdc:index:KafkaUser reader grpc-reader`: inputs as a program writes them, the password a secret placeholder.
    const imported = await h.call("read", readRequest(TYPE, "reader", "grpc-reader", {}));
    expect(plain(imported.getInputs())).toEqual({ username: "grpc-reader", password: secret("********"), whitelistIps: ["10.1.0.0/16"], kafkaAcls: [{ ...acl, resource: "TOPIC" }] });

    await h.call("delete", deleteRequest(TYPE, "reader", "grpc-reader", updated));
    expect((await listKafkaUsers(h.console)).find((u) => u.username === "grpc-reader")).toBeUndefined();
  });

  it("a new username replaces the user", async () => {
    const inputs = await checked({ username: "grpc-a", password: PASSWORD });
    const created = await h.call("create", createRequest(TYPE, "reader", inputs));
    const outs = plain(created.getProperties());
    const renamed = await checked({ username: "grpc-b", password: PASSWORD }, inputs);
    const diff = await h.call("diff", diffRequest(TYPE, "reader", "grpc-a", outs, renamed, inputs));
    expect(diff.getReplacesList()).toEqual(["username"]);
    expect(detailed(diff)).toEqual({ username: Kind.UPDATE_REPLACE });
    await h.call("delete", deleteRequest(TYPE, "reader", "grpc-a", outs));
  });
});
