import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { DESTINATION_STATES, LLM_PROVIDERS, REPLAY_WINDOWS, SOURCE_STATES, TAG_TYPES } from "../../../catalogue/kind-values.js";
import { resolveSettings } from "../../../provider/client/settings.js";
import { resolveTuning } from "../../../provider/client/tuning.js";
import { AgentProvider } from "../../../provider/resources/agent.js";
import { ClientCredentialProvider } from "../../../provider/resources/clientCredential.js";
import { ConnectorProvider, DESTINATION, SOURCE } from "../../../provider/resources/connector.js";
import { HttpConnectionProvider } from "../../../provider/resources/httpConnection.js";
import { KafkaUserProvider } from "../../../provider/resources/kafkaUser.js";
import { LlmConnectionProvider } from "../../../provider/resources/llmConnection.js";
import { PipelineProvider } from "../../../provider/resources/pipeline.js";
import { TagProvider } from "../../../provider/resources/tag.js";
import { TopicProvider } from "../../../provider/resources/topic.js";
import { TopicDestinationProvider } from "../../../provider/resources/topicDestination.js";
import { TransformProvider } from "../../../provider/resources/transform.js";
import { DestinationSmtChainProvider } from "../../../provider/resources/destinationSmtChain.js";
import { FUNCTIONS, INTERNAL_PROPERTIES, KINDS, OBJECT_TYPES, PROVIDER_CONFIG, type KindName, type TypeSpec } from "../../../provider/kinds/index.js";
import { TYPED_TYPES, type TypedToken } from "../../../provider/typed/kinds.js";
import { packageVersion, renderSchema, SCHEMA_PATH } from "../../../scripts/generate/schema.js";
import { enumValues, FULL_INPUTS as FULL } from "../../support/kind-inputs.js";

const root = join(__dirname, "..", "..", "..");

type Json = Record<string, unknown>;
const schema = JSON.parse(readFileSync(join(root, SCHEMA_PATH), "utf8")) as Json;
const section = (name: string) => schema[name] as Record<string, Json>;

interface Core {
  check(olds: Record<string, unknown>, news: Record<string, unknown>): Promise<{ inputs: Record<string, unknown>; failures: unknown[] }>;
}

/** Each kind's core (the check() the plugin calls) and the zod schema that check() parses with (its declaration's). */
const CORES: Record<KindName, { core: Core; zod: z.ZodObject }> = {
  Source: { core: new ConnectorProvider(SOURCE) as unknown as Core, zod: KINDS.Source.inputSchema },
  Destination: { core: new ConnectorProvider(DESTINATION) as unknown as Core, zod: KINDS.Destination.inputSchema },
  Tag: { core: new TagProvider() as unknown as Core, zod: KINDS.Tag.inputSchema },
  ClientCredential: { core: new ClientCredentialProvider() as unknown as Core, zod: KINDS.ClientCredential.inputSchema },
  HttpConnection: { core: new HttpConnectionProvider() as unknown as Core, zod: KINDS.HttpConnection.inputSchema },
  LlmConnection: { core: new LlmConnectionProvider() as unknown as Core, zod: KINDS.LlmConnection.inputSchema },
  Agent: { core: new AgentProvider() as unknown as Core, zod: KINDS.Agent.inputSchema },
  Pipeline: { core: new PipelineProvider() as unknown as Core, zod: KINDS.Pipeline.inputSchema },
  Transform: { core: new TransformProvider() as unknown as Core, zod: KINDS.Transform.inputSchema },
  Topic: { core: new TopicProvider() as unknown as Core, zod: KINDS.Topic.inputSchema },
  TopicDestination: { core: new TopicDestinationProvider() as unknown as Core, zod: KINDS.TopicDestination.inputSchema },
  KafkaUser: { core: new KafkaUserProvider() as unknown as Core, zod: KINDS.KafkaUser.inputSchema },
  DestinationSmtChain: { core: new DestinationSmtChainProvider() as unknown as Core, zod: KINDS.DestinationSmtChain.inputSchema },
};

const plainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a value has the schema type the property declares. */
function conforms(type: TypeSpec, v: unknown): boolean {
  if (type === "any") return true;
  if (type === "string") return typeof v === "string";
  if (type === "integer") return Number.isInteger(v);
  if (type === "number") return typeof v === "number";
  if (type === "boolean") return typeof v === "boolean";
  if ("arrayOf" in type) return Array.isArray(v) && v.every((x) => conforms(type.arrayOf, x));
  if ("mapOf" in type) return plainObject(v) && Object.values(v).every((x) => conforms(type.mapOf, x));
  if ("ref" in type) {
    // A typed resource's enum (one of its values) or map entry type.
    const named = TYPED_TYPES[type.ref as TypedToken]!;
    if ("enum" in named) return named.enum.some((e) => e.value === v);
    return plainObject(v) && named.properties.every((p) => !p.required || p.name in v) && Object.entries(v).every(([k, x]) => named.properties.some((p) => p.name === k && conforms(p.type, x)));
  }
  const props = OBJECT_TYPES[type.object].properties;
  return (
    plainObject(v) &&
    props.every((p) => !p.required || p.name in v) &&
    Object.entries(v).every(([k, x]) => props.some((p) => p.name === k && conforms(p.type, x)))
  );
}

/** Every property spec of the schema, with where it is. */
function allProperties(): Array<[string, Json]> {
  const out: Array<[string, Json]> = [];
  const add = (where: string, props: unknown) => {
    for (const [name, p] of Object.entries((props ?? {}) as Record<string, Json>)) out.push([`${where}.${name}`, p]);
  };
  for (const [token, r] of Object.entries(section("resources"))) {
    add(`${token} output`, r.properties);
    add(`${token} input`, r.inputProperties);
  }
  for (const [token, t] of Object.entries(section("types"))) add(token, t.properties);
  for (const [token, f] of Object.entries(section("functions"))) {
    add(`${token} input`, (f.inputs as Json | undefined)?.properties);
    add(`${token} output`, (f.outputs as Json).properties);
  }
  add("config", section("config").variables);
  add("provider", section("provider").inputProperties);
  return out;
}

describe("the provider plugin's package schema", () => {
  it(`${SCHEMA_PATH} is up to date with provider/kinds/index.ts (run \`npm run generate\` when this fails)`, () => {
    expect(readFileSync(join(root, SCHEMA_PATH), "utf8"), `${SCHEMA_PATH} is stale: run npm run generate`).toBe(renderSchema(packageVersion(root)));
  });

  it("names the package and its languages", () => {
    expect(schema).toMatchObject({
      name: "cdc",
      version: JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version,
      license: "Apache-2.0",
      language: {
        nodejs: { packageName: "pulumi-cdc-sdk" },
        go: { importBasePath: "github.com/pulumi-cdc/pulumi-cdc/generated/sdks/go/cdc", generateResourceContainerTypes: true },
        python: { packageName: "pulumi_cdc" },
        csharp: { rootNamespace: "PulumiCdc" },
      },
    });
  });

  it("has the thirteen resources and the lookups", () => {
    // (and the typed resources: typed.test.ts)
    expect(Object.keys(section("resources")).filter((t) => t.startsWith("cdc:index:")).sort()).toEqual(
      ["Agent", "ClientCredential", "Destination", "DestinationSmtChain", "HttpConnection", "KafkaUser", "LlmConnection", "Pipeline", "Source", "Tag", "Topic", "TopicDestination", "Transform"].map((k) => `cdc:index:${k}`),
    );
    expect(Object.keys(section("functions")).sort()).toEqual(
      ["getDestination", "getKafkaUser", "getRoles", "getSource", "getTag", "getTags", "getTopic", "getTopicMetrics", "getTopics", "getTransform"].map((f) => `cdc:index:${f}`),
    );
    for (const [name, kind] of Object.entries(KINDS)) expect(kind.token).toBe(`cdc:index:${name}`);
  });

  it("describes every resource, type, function and property", () => {
    for (const group of ["resources", "types", "functions"]) {
      for (const [token, spec] of Object.entries(section(group))) expect(String(spec.description ?? "").trim(), token).not.toBe("");
    }
    const props = allProperties();
    expect(props.length).toBeGreaterThan(150);
    for (const [where, p] of props) expect(String(p.description ?? "").trim(), where).not.toBe("");
  });

  it("refers only to types it defines", () => {
    const refs = JSON.stringify(schema).match(/"\$ref":"[^"]*"/g) ?? [];
    for (const ref of refs) {
      const target = ref.slice('"$ref":"'.length, -1);
      if (target === "pulumi.json#/Any") continue;
      expect(Object.keys(section("types")), target).toContain(target.replace("#/types/", ""));
    }
  });

  it("keeps secrets secret: the credential's secret, header values, the LLM key, the client secret and access token", () => {
    const resources = section("resources");
    const prop = (token: string, group: string, name: string) => ((resources[token]![group] as Record<string, Json>)[name] ?? {}) as Json;
    expect(prop("cdc:index:ClientCredential", "properties", "secret").secret).toBe(true);
    expect(prop("cdc:index:HttpConnection", "inputProperties", "headers").secret).toBe(true);
    expect(prop("cdc:index:LlmConnection", "inputProperties", "apiKey").secret).toBe(true);
    expect(prop("cdc:index:KafkaUser", "inputProperties", "password").secret).toBe(true);
    for (const group of [section("config").variables, section("provider").inputProperties] as Array<Record<string, Json>>) {
      const secret = Object.entries(group)
        .filter(([, p]) => p.secret)
        .map(([k]) => k)
        .sort();
      expect(secret).toEqual(["accessToken", "clientSecret"]);
    }
    // Secret values never come back in outputs: neither header values nor the LLM key.
    expect(Object.keys(resources["cdc:index:HttpConnection"]!.properties as Json)).not.toContain("headers");
    expect(Object.keys(resources["cdc:index:LlmConnection"]!.properties as Json)).not.toContain("apiKey");
    expect(Object.keys(resources["cdc:index:KafkaUser"]!.properties as Json)).not.toContain("password");
  });

  it("finds the allowed values of the cores' enum inputs", () => {
    expect(enumValues(KINDS.Tag.inputSchema.shape.type)).toEqual([...TAG_TYPES]);
    expect(enumValues(KINDS.LlmConnection.inputSchema.shape.provider)).toEqual([...LLM_PROVIDERS]);
    expect(enumValues(KINDS.Source.inputSchema.shape.desiredState)).toEqual([...SOURCE_STATES]);
    expect(enumValues(KINDS.Destination.inputSchema.shape.desiredState)).toEqual([...DESTINATION_STATES]);
    expect(enumValues(KINDS.Transform.inputSchema.shape.transform)).toHaveLength(7);
    // (sorted: zod keeps its enums in an object, whose integer-like key "0" comes first)
    expect(enumValues(KINDS.Transform.inputSchema.shape.replayWindow).sort()).toEqual([...REPLAY_WINDOWS].sort());
  });

  describe.each(Object.keys(KINDS) as KindName[])("%s inputs", (kind) => {
    const spec = KINDS[kind];
    const { core, zod } = CORES[kind];
    const names = spec.inputs.map((p) => p.name);

    it("are exactly the inputs its core's check() accepts, less the internal ones", () => {
      const accepted = Object.keys(zod.shape).filter((k) => !(INTERNAL_PROPERTIES as readonly string[]).includes(k));
      expect([...names].sort()).toEqual(accepted.sort());
    });

    it("are required exactly where check() requires them", () => {
      for (const p of spec.inputs) {
        const optional = zod.shape[p.name]!.safeParse(undefined).success;
        expect(Boolean(p.required), `${kind}.${p.name}`).toBe(!optional);
      }
    });

    it("name every value an enum input allows", () => {
      for (const p of spec.inputs) {
        for (const value of enumValues(zod.shape[p.name] as z.ZodType)) expect(p.description, `${kind}.${p.name}`).toContain(`\`${value}\``);
      }
    });

    it("all set, of their declared types, pass check() and are carried into the checked inputs", async () => {
      const full = FULL[kind];
      expect(Object.keys(full).sort()).toEqual([...names].sort());
      for (const p of spec.inputs) expect(conforms(p.type, full[p.name]), `${kind}.${p.name}`).toBe(true);
      const checked = await core.check({}, { logicalName: "res", ...full });
      expect(checked.failures).toEqual([]);
      for (const name of names) expect(checked.inputs, `${kind}.${name}`).toHaveProperty(name);
    });

    it("only the required ones set pass check()", async () => {
      const minimal = Object.fromEntries(spec.inputs.filter((p) => p.required).map((p) => [p.name, FULL[kind][p.name]]));
      const checked = await core.check({}, { logicalName: "res", ...minimal });
      expect(checked.failures).toEqual([]);
    });

    it("come back in the outputs, but for secret values", () => {
      const outputs = spec.outputs.map((p) => p.name);
      // A secret input comes back only as a secret output (an adopted credential's secret), or not at all.
      const dropped = spec.inputs.filter((p) => p.secret && !spec.outputs.some((o) => o.name === p.name && "secret" in o && o.secret)).map((p) => p.name);
      expect(names.filter((n) => !outputs.includes(n))).toEqual(dropped);
      for (const p of spec.outputs) {
        const input = spec.inputs.find((i) => i.name === p.name);
        if (input) expect(p.type, `${kind}.${p.name}`).toEqual(input.type);
      }
      expect(spec.outputs.some((p) => (INTERNAL_PROPERTIES as readonly string[]).includes(p.name))).toBe(false);
    });
  });

  it("lookups take a name (getRoles nothing) and say what they return", () => {
    expect(FUNCTIONS["cdc:index:getRoles"].inputs).toEqual([]);
    for (const token of ["cdc:index:getSource", "cdc:index:getDestination", "cdc:index:getTag"] as const) {
      expect(FUNCTIONS[token].inputs.map((p) => [p.name, p.required])).toEqual([["name", true]]);
    }
    expect(FUNCTIONS["cdc:index:getSource"].outputs.map((p) => p.name)).toEqual(["id", "name", "connector", "status", "config", "topics"]);
    expect(FUNCTIONS["cdc:index:getTag"].outputs.map((p) => p.name)).toEqual(["id", "name", "type", "description", "system"]);
    expect(FUNCTIONS["cdc:index:getTransform"].inputs.map((p) => [p.name, p.required])).toEqual([["name", true]]);
    expect(FUNCTIONS["cdc:index:getKafkaUser"].inputs.map((p) => [p.name, p.required])).toEqual([["username", true]]);
    expect(FUNCTIONS["cdc:index:getTopic"].inputs.map((p) => [p.name, p.required])).toEqual([["id", true]]);
    expect(FUNCTIONS["cdc:index:getTopicMetrics"].inputs.map((p) => [p.name, p.required])).toEqual([["ids", true]]);
    // The list lookups take only filters, none required.
    expect(FUNCTIONS["cdc:index:getTags"].inputs.every((p) => !p.required)).toBe(true);
    expect(FUNCTIONS["cdc:index:getTopics"].inputs.map((p) => p.name)).toEqual(["source", "destination", "transform", "name"]);
    expect(FUNCTIONS["cdc:index:getKafkaUser"].outputs.map((p) => p.name)).not.toContain("password");
  });

  it("documents each configuration key with the environment variable and default the client really uses", () => {
    expect(PROVIDER_CONFIG.map((c) => c.name)).toEqual([
      "apiUrl",
      "clientId",
      "clientSecret",
      "accessToken",
      "createdFrom",
      "adminTenantId",
      "adminServiceId",
      "allowInsecureHttp",
      "retryAttempts",
      "retryBaseDelayMs",
      "retryMaxDelayMs",
      "retryAfterMaxMs",
      "resourceTimeoutSec",
      "maxConcurrency",
      "maxResponseMiB",
    ]);
    const token = { CDC_ACCESS_TOKEN: "tok" };
    for (const c of PROVIDER_CONFIG) {
      expect(c.key).toBe(`cdc:${c.name}`);
      expect(c.description).toContain(`\`${c.env}\``);
      if (c.default !== undefined) expect(c.description).toContain(String(c.default));
      if (c.type === "integer") {
        // The documented default is the client's, and both the key and the variable are read.
        expect(resolveTuning({ [c.key]: String(c.default) }, {})).toEqual(resolveTuning({}, {}));
        expect(resolveTuning({ [c.key]: "7" }, {})).not.toEqual(resolveTuning({}, {}));
        expect(resolveTuning({}, { [c.env]: "7" })).toEqual(resolveTuning({ [c.key]: "7" }, {}));
      } else if (c.type === "boolean") {
        // An opt-in: off unless set, in the config or the environment.
        expect(c.default).toBe(false);
        expect((resolveSettings({}, token) as unknown as Record<string, unknown>)[c.name] ?? false).toBe(false);
        expect((resolveSettings({}, { ...token, [c.env]: "true" }) as unknown as Record<string, unknown>)[c.name]).toBe(true);
        expect((resolveSettings({ [c.key]: "true" }, token) as unknown as Record<string, unknown>)[c.name]).toBe(true);
      } else {
        const value = c.name === "apiUrl" ? "https://api.example.com" : c.name.startsWith("admin") ? "665e894ebb3753f38d983cee" : "from-env";
        // A service id is taken only with a tenant id.
        const scope = c.name === "adminServiceId" ? { CDC_ADMIN_TENANT_ID: "665e894ebb3753f38d983cef" } : {};
        const settings = resolveSettings({}, { ...token, ...scope, CDC_CLIENT_ID: "id", CDC_CLIENT_SECRET: "sec", [c.env]: value }) as unknown as Record<string, unknown>;
        expect(settings[c.name], c.name).toBe(value);
        if (c.default !== undefined) expect((resolveSettings({}, token) as unknown as Record<string, unknown>)[c.name]).toBe(c.default);
      }
    }
  });
});
