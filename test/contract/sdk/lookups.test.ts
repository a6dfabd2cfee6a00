import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startEmulator, type RunningEmulator } from "../../../emulator/index.js";
import { clientCredentialSchema } from "../../../provider/client/index.js";
import { getRoles, getSource, getTag } from "../../../sdk/lookups.js";
import { ClientCredentialProvider } from "../../../provider/resources/clientCredential.js";
import { configure, resetClients } from "../../../provider/client/index.js";
import { ConsoleClient, webClient } from "../../support/web.js";

const PG_CONFIG = {
  "database.hostname.user.defined": "db",
  "database.user": "u",
  "database.password": "p-lookup",
  "database.dbname": "d",
  "schema.include.list": "public",
  "table.include.list.user.defined": "public.t",
};

// The lookups run in the program; outside a Pulumi run there is no stack config, so they take
// the CDC_* variables, as a program does when the stack sets no cdc:* keys.
describe("lookups for programs", () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  const saved = { ...process.env };
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    Object.assign(process.env, { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret });
    web = webClient(emulator);
  });
  afterAll(async () => {
    for (const k of ["CDC_API_URL", "CDC_CLIENT_ID", "CDC_CLIENT_SECRET"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await web?.close();
    await resetClients();
    await emulator?.stop();
  });

  it("getRoles lists the roles a credential can have", async () => {
    const roles = await getRoles();
    expect(roles.map((r) => r.id)).toEqual(expect.arrayContaining(["role_viewer"]));
  });

  it("getSource finds exactly one by its exact name, and says so when there is none", async () => {
    const created = (await web.post("/sources", {
      body: {
        name: "lookup-orders",
        connector: "postgresql",
        config: PG_CONFIG,
      },
    })) as { id: string };
    await web.post("/sources", {
      body: {
        name: "lookup-orders-2",
        connector: "postgresql",
        config: PG_CONFIG,
      },
    });
    const found = await getSource({ name: "lookup-orders" });
    expect(found).toMatchObject({ id: created.id, name: "lookup-orders", connector: "postgresql" });
    // Secrets stay masked in what a lookup returns.
    expect(JSON.stringify(found)).not.toContain("p-lookup");
    await expect(getSource({ name: "lookup-missing" })).rejects.toThrow('no source named "lookup-missing" exists: check the name');
  });

  it("getTag refuses an ambiguous name", async () => {
    await web.post("/tags", { body: { name: "lookup-tag", description: "", type: ["sources"] } });
    await expect(getTag({ name: "lookup-tag" })).resolves.toMatchObject({ name: "lookup-tag", system: false });
    await expect(getTag({ name: "nope-tag" })).rejects.toThrow(/no tag named "nope-tag"/);
  });

  it("a ClientCredential is stamped with the IaC created_from, as every other kind", async () => {
    configure({ "cdc:apiUrl": emulator.url, "cdc:clientId": emulator.clientId, "cdc:clientSecret": emulator.clientSecret }, {});
    const { id } = await new ClientCredentialProvider().create({ roleIds: ["role_viewer"], description: "stamped" });
    const listed = await web.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) });
    expect(listed.find((c) => c.client_id === id)?.created_from).toBe("terraform");
  });
});
