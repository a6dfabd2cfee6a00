import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { clientCredentialSchema, ConnectionError, getClient } from "../../../provider/client/index.js";
import { ClientCredentialProvider, type ClientCredentialInputs } from "../../../provider/resources/clientCredential.js";
import { TagProvider, type TagInputs, type TagOutputs } from "../../../provider/resources/tag.js";
import { FAST_RETRIES, startHarness, type ProviderHarness } from "./harness.js";
import { ConsoleClient } from "../../support/web.js";

const tags = new TagProvider();
const credentials = new ClientCredentialProvider();

describe("Tag provider against the emulator", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it("creates, reads, updates, adopts and deletes", async () => {
    const { inputs, failures } = await tags.check({}, { logicalName: "pii", description: "personal data", type: ["sources", "destinations"] });
    expect(failures).toEqual([]);
    const { id, outs } = await tags.create(inputs as TagInputs);
    expect(outs).toMatchObject({ name: expect.stringMatching(/^pii-/), description: "personal data", custom: true, system: false });
    expect(await tags.diff(id, outs, inputs as TagInputs)).toEqual({ changes: false, replaces: [] });
    const read = await tags.read(id, outs);
    expect(await tags.diff(id, read.props as TagOutputs, inputs as TagInputs)).toMatchObject({ changes: false });

    const news = { ...(inputs as TagInputs), type: ["destinations", "sources"], description: "PII" };
    expect(await tags.diff(id, outs, news)).toMatchObject({ changes: true });
    const updated = await tags.update(id, outs, news);
    expect(updated.outs.description).toBe("PII");

    const adopted = await tags.create({ ...news, name: "pii-adopted", adoptId: id });
    expect(adopted.id).toBe(id);
    expect(adopted.outs.name).toBe("pii-adopted");

    await tags.delete(id);
    expect((await tags.read(id, outs)).id).toBe("");
    await tags.delete(id);
  });

  it("a duplicate name is a 409 naming the tag to adopt, and pulumi-cdc recover when an IaC run made it", async () => {
    const { inputs } = await tags.check({}, { logicalName: "dup", name: "dup-tag", type: ["sources"] });
    const { id } = await tags.create(inputs as TagInputs);
    vi.stubEnv("PULUMI_STACK", "staging");
    try {
      const err = (await tags.create(inputs as TagInputs).then(() => new Error("created"), (e: unknown) => e)) as Error;
      expect(err.message).toMatch(new RegExp(`409 Conflict.*Tag names are unique: choose another name, or take it over with adoptId: "${id}"\\.`));
      expect(err.message).toMatch(/if a `pulumi up` was interrupted, .*run `npx pulumi-cdc recover --stack staging` to take it into the stack\.$/);
    } finally {
      vi.unstubAllEnvs();
    }
    await tags.delete(id);

    const made = (await h.console.post("/tags", { body: { name: "console-tag", type: ["sources"] } })) as { id: string };
    const { inputs: clash } = await tags.check({}, { logicalName: "clash", name: "console-tag", type: ["sources"] });
    const refused = (await tags.create(clash as TagInputs).then(() => new Error("created"), (e: unknown) => e)) as Error;
    expect(refused.message).toMatch(new RegExp(`adoptId: "${made.id}"\\.$`));
    expect(refused.message).not.toMatch(/recover/);
    await tags.delete(made.id);
  });
});

describe("ClientCredential provider against the emulator", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it("creates a working credential and keeps its secret across refresh", async () => {
    const { inputs, failures } = await credentials.check({}, { roleIds: ["role_viewer"], description: "downstream dbt" });
    expect(failures).toEqual([]);
    const { id, outs } = await credentials.create(inputs as ClientCredentialInputs);
    expect(outs).toMatchObject({ clientId: id, secret: expect.any(String), roleKeys: ["viewer"] });

    // The secret really authenticates.
    const downstream = new ConsoleClient({ settings: { apiUrl: h.emulator.url, clientId: outs.clientId, clientSecret: outs.secret, createdFrom: "api" } });
    await expect(downstream.get("/tags")).resolves.toBeDefined();
    await downstream.close();

    const read = await credentials.read(id, outs);
    expect(read.props).toMatchObject({ secret: outs.secret, roleIds: ["role_viewer"], description: "downstream dbt" });
    const listed = await h.console.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) });
    expect(listed.find((c) => c.client_id === id)?.secret ?? "").not.toBe(outs.secret);

    expect(await credentials.diff(id, outs, inputs as ClientCredentialInputs)).toEqual({ changes: false, replaces: [], diffs: [] });
    expect(await credentials.diff(id, outs, { roleIds: ["role_editor"], description: "downstream dbt" })).toEqual({
      changes: true,
      replaces: [],
      diffs: ["roleIds"],
    });

    await credentials.delete(id);
    expect((await credentials.read(id, outs)).id).toBe("");
    await credentials.delete(id);
  });

  it("changes roles and description in place (PATCH): the same client id, and the secret still signs in", async () => {
    const { id, outs } = await credentials.create({ roleIds: ["role_viewer"], description: "reporting" });
    h.emulator.resetStats();
    const { outs: updated } = await credentials.update(id, outs, { roleIds: ["role_editor"], description: "reporting and loads" });
    expect(h.emulator.stats().requests).toEqual({ "PATCH /auth/client-credentials/:client_id": 1 });
    expect(updated).toMatchObject({ clientId: id, secret: outs.secret, roleIds: ["role_editor"], roleKeys: ["editor"], description: "reporting and loads" });
    const live = (await h.console.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) })).find((c) => c.client_id === id);
    expect(live).toMatchObject({ description: "reporting and loads", roles: [expect.objectContaining({ id: "role_editor" })] });
    // Editors write sources, viewers do not: the roles changed for the same secret.
    const downstream = new ConsoleClient({ settings: { apiUrl: h.emulator.url, clientId: id, clientSecret: updated.secret, createdFrom: "api" } });
    await expect(downstream.post("/tags", { body: { name: `by-${id}`, type: ["sources"] } })).resolves.toBeDefined();
    await downstream.close();

    // The description removed from the program: the API keeps it, so it stays, with no diff after.
    const { outs: kept } = await credentials.update(id, updated, { roleIds: ["role_viewer"] });
    expect(kept.description).toBe("reporting and loads");
    expect(await credentials.diff(id, kept, { roleIds: ["role_viewer"] })).toEqual({ changes: false, replaces: [], diffs: [] });
    expect((await credentials.read(id, kept)).props).toMatchObject({ description: "reporting and loads", secret: outs.secret });

    await credentials.delete(id);
    await expect(credentials.update(id, kept, { roleIds: ["role_editor"] })).rejects.toThrow(/deleted outside Pulumi.*pulumi refresh/);
  });

  it("takes an empty PATCH answer as success and reads the credential back from the listing", async () => {
    const { id, outs } = await credentials.create({ roleIds: ["role_viewer"], description: "quiet" });
    const api = getClient();
    const patch = api.patch.bind(api);
    const spy = vi.spyOn(api, "patch").mockImplementation(async (...args: Parameters<typeof api.patch>) => {
      await patch(...args);
      return undefined;
    });
    const { outs: updated } = await credentials.update(id, outs, { roleIds: ["role_editor"], description: "quiet" }).finally(() => spy.mockRestore());
    expect(updated).toMatchObject({ clientId: id, secret: outs.secret, roleKeys: ["editor"], description: "quiet" });
    await credentials.delete(id);
  });

  it("names the field when the API rejects an unknown role", async () => {
    await expect(credentials.create({ roleIds: ["role_nope"] })).rejects.toThrow(/role/);
  });
});

describe("a client credential whose create answer is lost", () => {
  let h: ProviderHarness;
  beforeAll(async () => {
    h = await startHarness({}, FAST_RETRIES);
  });
  afterAll(async () => h?.close());

  const list = () => h.console.get("/auth/client-credentials", { schema: z.array(clientCredentialSchema) });

  it("is deleted again (its secret is lost) and created anew: one credential, with its secret", async () => {
    const before = await list();
    h.emulator.resetStats();
    h.emulator.setFaults({ loseNext: 1, routes: ["/auth/client-credentials"] });
    const created = await credentials.create({ roleIds: ["role_viewer"], description: "lost once" }).finally(() => h.emulator.setFaults({ loseNext: 0, routes: ["/"] }));
    expect(h.emulator.stats().faults.lost).toBe(1);
    expect(created.outs.secret).toEqual(expect.any(String));
    const after = await list();
    expect(after.map((c) => c.client_id).sort()).toEqual([...before.map((c) => c.client_id), created.id].sort());
    await credentials.delete(created.id);
  });

  /** Runs `fault` once the create's first listing (the "before") is answered, so it hits the POST. */
  function afterTheListing(fault: () => void) {
    const api = getClient();
    const get = api.get.bind(api);
    let armed = true;
    return vi.spyOn(api, "get").mockImplementation(async (...args: Parameters<typeof api.get>) => {
      const out = await get(...args);
      if (armed && args[0] === "/auth/client-credentials") {
        armed = false;
        fault();
      }
      return out;
    });
  }

  it("a POST answered 503 that made nothing (the listing shows no new credential) is sent again: one credential", async () => {
    const before = await list();
    h.emulator.resetStats();
    const spy = afterTheListing(() => h.emulator.setFaults({ failNext: 1, routes: ["/auth/client-credentials"] }));
    const created = await credentials.create({ roleIds: ["role_viewer"], description: "503 once" }).finally(() => spy.mockRestore());
    expect(h.emulator.stats().faults.failed).toBe(1);
    expect(h.emulator.stats().requests["POST /auth/client-credentials"]).toBe(2);
    expect(h.emulator.stats().requests["DELETE /auth/client-credentials/:client_id"]).toBeUndefined();
    const after = await list();
    expect(after.map((c) => c.client_id).sort()).toEqual([...before.map((c) => c.client_id), created.id].sort());
    await credentials.delete(created.id);
  });

  /** The next POST fails on the client's side with this connection error, before reaching the emulator. */
  const failNextPost = (code: string, reason: string) =>
    vi.spyOn(getClient(), "post").mockRejectedValueOnce(new ConnectionError({ method: "POST", path: "/auth/client-credentials", code, reason }));

  it("an answer that did not come in time, with no new credential to show, is not sent again (the server may still be making one): an error says what to check", async () => {
    const before = await list();
    h.emulator.resetStats();
    const post = failNextPost("UND_ERR_HEADERS_TIMEOUT", "Headers Timeout Error");
    const error = await credentials.create({ roleIds: ["role_viewer"], description: "in flight" }).catch((e: unknown) => e);
    const posts = post.mock.calls.length;
    post.mockRestore();
    expect(posts).toBe(1);
    expect(h.emulator.stats().requests["POST /auth/client-credentials"]).toBeUndefined();
    // The listing was asked again before giving up.
    expect(h.emulator.stats().requests["GET /auth/client-credentials"]).toBeGreaterThanOrEqual(3);
    expect((error as Error).message).toMatch(/not sent again.*Run `pulumi up` again.*description "in flight".*DELETE \/auth\/client-credentials\/<client_id>/);
    expect((await list()).map((c) => c.client_id).sort()).toEqual(before.map((c) => c.client_id).sort());
  });

  it("a connection cut with no new credential to show after a few looks is sent again: one credential", async () => {
    const before = await list();
    h.emulator.resetStats();
    const post = failNextPost("UND_ERR_SOCKET", "other side closed");
    const created = await credentials.create({ roleIds: ["role_viewer"], description: "cut" }).finally(() => post.mockRestore());
    expect(h.emulator.stats().requests["GET /auth/client-credentials"]).toBeGreaterThanOrEqual(4);
    expect(h.emulator.stats().requests["POST /auth/client-credentials"]).toBe(1);
    expect((await list()).map((c) => c.client_id).sort()).toEqual([...before.map((c) => c.client_id), created.id].sort());
    await credentials.delete(created.id);
  });

  it("when every answer is lost, ends with an error and leaves no credential behind", async () => {
    const before = await list();
    h.emulator.setFaults({ lostResponseRate: 1, routes: ["/auth/client-credentials"] });
    const error = await credentials.create({ roleIds: ["role_viewer"], description: "lost" }).catch((e: unknown) => e);
    h.emulator.setFaults({ lostResponseRate: 0, routes: ["/"] });
    // The clean-up's DELETEs lose their answers too: the error is the clean-up's, but each DELETE took effect.
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/client-credentials/);
    const after = await list();
    expect(after.map((c) => c.client_id).sort()).toEqual(before.map((c) => c.client_id).sort());
  });
});
