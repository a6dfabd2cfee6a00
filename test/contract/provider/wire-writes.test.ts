// Connector writes as the platform's own Terraform provider sends them (seen through a recording
// proxy in front of the emulator): `wait=false` on create, update and delete, and the whole
// config, the catalogue's default or null for every key the program leaves unset. Diff and drift
// still look only at what the program set.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../../catalogue/index.js";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { configure, resetClients } from "../../../provider/client/index.js";
import { ConnectorProvider, DESTINATION, SOURCE, type ConnectorInputs, type ConnectorOutputs } from "../../../provider/resources/connector.js";
import { startRecordingProxy, type RecordingProxy } from "../../support/recording-proxy.js";
import { pgSourceConfig, snowflakeConfig } from "../../support/fixtures.js";

const sources = new ConnectorProvider(SOURCE);
const destinations = new ConnectorProvider(DESTINATION);

let emulator: RunningEmulator;
let proxy: RecordingProxy;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  proxy = await startRecordingProxy(emulator.url);
  configure({ "cdc:apiUrl": proxy.url, "cdc:clientId": emulator.clientId, "cdc:clientSecret": emulator.clientSecret }, {});
});
afterAll(async () => {
  await resetClients();
  await proxy?.stop();
  await emulator?.stop();
});

function last(method: string, path: string) {
  const seen = proxy.requests.filter((r) => r.method === method && r.path === path);
  expect(seen.length, `${method} ${path} was sent`).toBeGreaterThan(0);
  return seen.at(-1)!;
}

async function checked(p: ConnectorProvider, news: Record<string, unknown>, olds: Partial<ConnectorInputs> = {}) {
  const { inputs, failures } = await p.check(olds, news);
  expect(failures).toEqual([]);
  return inputs as ConnectorInputs;
}

/** Every key the program may set (not the platform's computed ones), as the vendor's model holds them. */
function settableKeys(kind: "source" | "destination", code: string): string[] {
  return CATALOGUE[kind][code]!.keys.filter((k) => !k.computed).map((k) => k.key);
}

describe("connector writes, as the platform's provider sends them", () => {
  it("creates a PostgreSQL source with wait=false and every catalogued key, defaults filled in", async () => {
    const inputs = await checked(sources, { logicalName: "wire-pg", connector: "postgresql", config: pgSourceConfig });
    const { id, outs } = await sources.create(inputs);

    const post = last("POST", "/sources");
    expect(post.query.get("wait")).toBe("false");
    const sent = (post.body as { config: Record<string, unknown> }).config;
    expect(Object.keys(sent).sort()).toEqual(settableKeys("source", "postgresql").sort());
    expect(sent).toMatchObject({ "slot.name": "streamkap_pgoutput_slot", "ssh.enabled": false, "ssh.host": null });
    // What the program set goes as it set it.
    expect(sent).toMatchObject(pgSourceConfig);

    // The stack keeps only what the program set: no perpetual diff, no drift from the defaults.
    expect(Object.keys(outs.config).sort()).toEqual(Object.keys(pgSourceConfig).sort());
    expect(await sources.diff(id, outs, inputs)).toMatchObject({ changes: false });
    const read = await sources.read(id, outs);
    expect(read.props).toMatchObject({ drift: { detected: false } });
    expect(await sources.diff(id, read.props as ConnectorOutputs, inputs)).toMatchObject({ changes: false });

    // An update sends the whole config again, with the same query.
    const news = await checked(sources, { logicalName: "wire-pg", connector: "postgresql", config: { ...pgSourceConfig, "slot.name": "custom_slot" } }, inputs);
    const updated = await sources.update(id, outs, news);
    const put = last("PUT", `/sources/${id}`);
    expect(put.query.get("wait")).toBe("false");
    expect((put.body as { config: Record<string, unknown> }).config).toMatchObject({ "slot.name": "custom_slot", "ssh.enabled": false });
    expect(await sources.diff(id, updated.outs, news)).toMatchObject({ changes: false });

    await sources.delete(id);
    expect(last("DELETE", `/sources/${id}`).query.get("wait")).toBe("false");
  });

  it("creates a Snowflake destination the same way; its drift check finds nothing", async () => {
    const inputs = await checked(destinations, { logicalName: "wire-sf", connector: "snowflake", config: snowflakeConfig });
    const { id, outs } = await destinations.create(inputs);

    const post = last("POST", "/destinations");
    expect(post.query.get("wait")).toBe("false");
    const sent = (post.body as { config: Record<string, unknown> }).config;
    expect(Object.keys(sent).sort()).toEqual(settableKeys("destination", "snowflake").sort());
    expect(sent["sfwarehouse"]).toBe("STREAMKAP_WH");
    expect(sent["create.sql.execute"]).toEqual(expect.stringContaining("CREATE OR REPLACE DYNAMIC TABLE"));

    expect(await destinations.diff(id, outs, inputs)).toMatchObject({ changes: false });
    expect((await destinations.read(id, outs)).props).toMatchObject({ drift: { detected: false } });

    await destinations.delete(id);
    expect(last("DELETE", `/destinations/${id}`).query.get("wait")).toBe("false");
  });

  it("sends an uncatalogued connector's config as the program gave it", async () => {
    const config = { "some.key": "v", "other.key": 3 };
    // The emulator knows only catalogued connectors: the request is what is checked here.
    const inputs = { name: "wire-raw", connector: "not-catalogued", config, desiredState: "active" } as unknown as ConnectorInputs;
    await expect(sources.create(inputs)).rejects.toThrow();
    expect((last("POST", "/sources").body as { config: unknown }).config).toEqual(config);
  });
});
