import { describe, expect, it } from "vitest";
import { provproto } from "../../../plugin/proto.js";
import { ResourceProviderServer } from "../../../plugin/server.js";

// Issue 41: the plugin's answer to GetMapping/GetMappings, as the engine's mapper asks for it
// (pkg/v3 codegen/convert base_plugin_mapper.go): the "terraform" key, the vendor's provider.

const server = new ResourceProviderServer();
const mapping = (key: string, provider: string) => server.getMapping(new provproto.GetMappingRequest().setKey(key).setProvider(provider));
const text = (data: Uint8Array | string) => (typeof data === "string" ? Buffer.from(data, "base64").toString("utf8") : Buffer.from(data).toString("utf8"));

describe("GetMapping", () => {
  it("answers the terraform key for the streamkap provider (and for no provider named) with the bridge's JSON", async () => {
    for (const provider of ["streamkap", ""]) {
      const resp = await mapping("terraform", provider);
      expect(resp.getProvider()).toBe("streamkap");
      const json = JSON.parse(text(resp.getData())) as { name: string; resources: Record<string, { tok: string }> };
      expect(json.name).toBe("streamkap");
      expect(json.resources.streamkap_source_postgresql?.tok).toBe("cdc:sources:Postgresql");
    }
  });

  it("answers empty data (no mapping) for another key or provider", async () => {
    expect((await mapping("terraform", "aws")).getData_asU8()).toHaveLength(0);
    expect((await mapping("crossplane", "streamkap")).getData_asU8()).toHaveLength(0);
  });

  it("GetMappings lists the streamkap provider for the terraform key only", async () => {
    expect((await server.getMappings(new provproto.GetMappingsRequest().setKey("terraform"))).getProvidersList()).toEqual(["streamkap"]);
    expect((await server.getMappings(new provproto.GetMappingsRequest().setKey("other"))).getProvidersList()).toEqual([]);
  });
});
