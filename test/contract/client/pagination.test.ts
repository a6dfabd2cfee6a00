import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { anyJsonSchema,
  ResponseShapeError,
  clientCredentialSchema,
  configComparisonSchema,
  destinationConnectorSchema,
  paginatedSchema,
  sourceConnectorSchema,
  tagSchema,
} from "../../../provider/client/index.js";
import { sendJson } from "./fake-api.js";
import { startHarness, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function source(i: number) {
  return {
    id: `src-${i}`,
    name: `source ${i}`,
    connector: "postgres",
    config: { "database.port": "5432", "database.password": "********" },
    topic_ids: [],
    topics: [],
    tasks: null,
    connector_status: "Active",
    task_statuses: null,
    service_id: null,
    brand_new_field: { nested: true },
  };
}

describe("pagination", () => {
  it("walks pages with page_size 100 until has_next is false", async () => {
    h = await startHarness();
    const all = Array.from({ length: 250 }, (_, i) => source(i));
    h.api.route("GET", "/sources", ({ res, seen }) => {
      const page = Number(seen.query.get("page"));
      const size = Number(seen.query.get("page_size"));
      const slice = all.slice((page - 1) * size, page * size);
      sendJson(res, 200, { result: slice, page, page_size: size, total: all.length, has_next: page * size < all.length });
    });

    const items = [];
    for await (const s of h.client.paginate("/sources", { connector: "postgres" }, sourceConnectorSchema)) items.push(s);

    expect(items.map((s) => s.id)).toEqual(all.map((s) => s.id));
    const reqs = h.api.requestsTo("GET", "/sources");
    expect(reqs.map((r) => r.query.get("page"))).toEqual(["1", "2", "3"]);
    expect(new Set(reqs.map((r) => r.query.get("page_size")))).toEqual(new Set(["100"]));
    expect(reqs.every((r) => r.query.get("connector") === "postgres")).toBe(true);
  });

  it("stops on an empty page even if has_next says otherwise", async () => {
    h = await startHarness();
    h.api.route("GET", "/destinations", ({ res, seen }) => {
      const page = Number(seen.query.get("page"));
      sendJson(res, 200, { result: page === 1 ? [{ id: "d1" }] : [], page, page_size: 100, total: null, has_next: true });
    });
    const items = await h.client.listAll("/destinations", undefined, destinationConnectorSchema);
    expect(items.map((d) => d.id)).toEqual(["d1"]);
    expect(h.api.requestsTo("GET", "/destinations")).toHaveLength(2);
  });

  it("accepts has_next null with a total, and string numbers; a full last page is followed by one more request", async () => {
    h = await startHarness();
    h.api.route("GET", "/tags", ({ res, seen }) => {
      const page = Number(seen.query.get("page"));
      const result = Array.from({ length: page < 3 ? 100 : 0 }, (_, i) => ({
        id: `t${page}-${i}`,
        name: `n${page}-${i}`,
        description: null,
        type: ["sources"],
        system: "false",
        custom: true,
      }));
      sendJson(res, 200, { result, page: String(page), page_size: "100", total: "200", has_next: null });
    });
    const tags = await h.client.listAll("/tags", undefined, tagSchema);
    expect(tags).toHaveLength(200);
    expect(tags[0]?.system).toBe(false);
    // Without has_next only a short page ends the listing, whatever total says.
    expect(h.api.requestsTo("GET", "/tags")).toHaveLength(3);
  });

  it("reads past a total that is too small, as the platform's client does", async () => {
    h = await startHarness();
    h.api.route("GET", "/sources", ({ res, seen }) => {
      const page = Number(seen.query.get("page"));
      const count = page < 3 ? 100 : 50;
      sendJson(res, 200, { result: Array.from({ length: count }, (_, i) => source(page * 1000 + i)), page, page_size: 100, total: 100, has_next: null });
    });
    expect(await h.client.listAll("/sources", undefined, sourceConnectorSchema)).toHaveLength(250);
    expect(h.api.requestsTo("GET", "/sources")).toHaveLength(3);
  });

  it("is bounded when the server always reports more", async () => {
    h = await startHarness();
    h.api.route("GET", "/sources", ({ res, seen }) => {
      sendJson(res, 200, { result: [source(Number(seen.query.get("page")))], page: 1, page_size: 100, has_next: true });
    });
    await expect(h.client.listAll("/sources", undefined, sourceConnectorSchema, { maxPages: 4 })).rejects.toThrow(/after 4 pages/);
    expect(h.api.requestsTo("GET", "/sources")).toHaveLength(4);
  });
});

describe("schemas over the wire", () => {
  it("tolerate unknown fields and keep them", async () => {
    h = await startHarness();
    h.api.route("GET", "/destinations/{id}/config-history/compare-to-original", ({ res }) =>
      sendJson(res, 200, {
        has_changes: true,
        oldest_timestamp: "2024-01-01T00:00:00Z",
        latest_timestamp: "2024-02-01T00:00:00Z",
        masked_diff: "--- a\n+++ b\n",
        diff_format: "unified",
      }),
    );
    h.api.route("POST", "/auth/client-credentials", ({ res }) =>
      sendJson(res, 200, {
        client_id: "cc-1",
        secret: "generated-secret-value",
        roles: [{ id: "r1", key: "admin", name: "Admin", permissions: ["a"], scope: "tenant" }],
        service_id: null,
        created_by_user: { id: "u1", email: "e@x", mfa: true },
        description: null,
        created_at: "2024-01-01",
        expires_at: null,
      }),
    );
    h.api.route("GET", "/sources/{id}", ({ res }) =>
      sendJson(res, 200, { result: [source(1)], page: 1, page_size: 10, total: 1, has_next: false, cursor: "abc" }),
    );

    const cmp = await h.client.get("/destinations/{id}/config-history/compare-to-original", {
      params: { id: "d1" },
      schema: configComparisonSchema,
    });
    expect(cmp.has_changes).toBe(true);
    expect((cmp as Record<string, unknown>).diff_format).toBe("unified");

    const cred = await h.client.post("/auth/client-credentials", { body: { role_ids: ["r1"] }, schema: clientCredentialSchema });
    expect(cred.roles[0]?.key).toBe("admin");
    expect(cred.secret).toBe("generated-secret-value");

    const env = await h.client.get("/sources/{id}", { params: { id: "src-1" }, schema: paginatedSchema(sourceConnectorSchema) });
    expect(env.result[0]?.brand_new_field).toEqual({ nested: true });
    expect(env.cursor).toBe("abc");
  });

  it("a response that breaks the schema is a ResponseShapeError naming the field", async () => {
    h = await startHarness();
    h.api.route("GET", "/tags/{id}", ({ res }) => sendJson(res, 200, { id: 42, name: "x" }));
    const err = (await h.client.get("/tags/{id}", { params: { id: "t" }, schema: tagSchema }).catch((e: unknown) => e)) as ResponseShapeError;
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.message).toMatch(/^GET \/tags\/t failed: 200 OK: unexpected response body: id: /);
  });

  it("a connector's config, topic map and task statuses are passed on as the API sent them, and one that is not a JSON object is a ResponseShapeError naming it", async () => {
    h = await startHarness();
    const config = { "database.hostname": "db", "snapshot.max.threads": 4, nested: { a: [1, null] }, "": "empty key" };
    h.api.route("GET", "/sources/{id}", ({ res, seen }) =>
      sendJson(res, 200, { result: [{ ...source(1), config: seen.path.endsWith("/bad") ? ["not", "an", "object"] : config, topic_map: { t: { x: 1 } }, task_statuses: null }] }),
    );
    const env = await h.client.get("/sources/{id}", { params: { id: "src-1" }, schema: paginatedSchema(sourceConnectorSchema) });
    expect(env.result[0]?.config).toEqual(config);
    expect(env.result[0]?.topic_map).toEqual({ t: { x: 1 } });
    expect(env.result[0]?.task_statuses).toBeNull();
    const err = (await h.client.get("/sources/{id}", { params: { id: "bad" }, schema: paginatedSchema(sourceConnectorSchema) }).catch((e: unknown) => e)) as ResponseShapeError;
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.message).toMatch(/result\.0\.config: expected a JSON object/);
  });

  it("without a schema returns the parsed JSON, and undefined for an empty body", async () => {
    h = await startHarness();
    h.api.route("PUT", "/sources/{id}/pause", ({ res }) => sendJson(res, 200, "paused"));
    h.api.route("DELETE", "/tags/{id}", ({ res }) => {
      res.writeHead(204);
      res.end();
    });
    expect(await h.client.put("/sources/{id}/pause", { schema: anyJsonSchema, params: { id: "s" } })).toBe("paused");
    expect(await h.client.delete("/tags/{id}", { params: { id: "t" }, schema: z.unknown() })).toBeUndefined();
    expect(h.api.requestsTo("PUT", "/sources/s/pause")[0]?.headers["content-type"]).toBeUndefined();
  });
});
