import type { ServerResponse } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { anyJsonSchema, isNotFound, ResponseShapeError, ResponseTooLargeError, tagSchema } from "../../../provider/client/index.js";
import { listTags } from "../../../provider/lookup.js";
import { sendJson } from "./fake-api.js";
import { startHarness, type Harness } from "./harness.js";

// A platform having a bad minute: a load balancer's page served with a 200, a body cut off, an
// answer of another shape. None of them is ever believed: each is a ResponseShapeError, repeated
// first where the call is safe to repeat, and never an empty list, a default or a string.

const HTML = "<!doctype html><html><head><title>Down for maintenance</title></head><body>Back soon</body></html>";

function sendText(res: ServerResponse, status: number, text: string, type: string): void {
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const GARBLED: Record<string, (res: ServerResponse) => void> = {
  "an HTML page": (res) => sendText(res, 200, HTML, "text/html"),
  "truncated JSON": (res) => sendText(res, 200, '{"tags": [{"id": "t1", "name": "ana', "application/json"),
  "a wrong shape": (res) => sendJson(res, 200, { tags: "nope" }),
  "items of another shape": (res) => sendJson(res, 200, { tags: [{ id: "t1", name: "analytics" }, { tag_id: 7, label: "x" }] }),
  "an empty object": (res) => sendJson(res, 200, {}),
};

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

async function shapeError(call: Promise<unknown>): Promise<ResponseShapeError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ResponseShapeError);
  return err as ResponseShapeError;
}

describe("a 2xx answer is checked before it is believed", () => {
  for (const [what, answer] of Object.entries(GARBLED)) {
    it(`the tag listing answered with ${what} fails with a ResponseShapeError naming the call, never "no tags"`, async () => {
      h.api.route("GET", "/tags", ({ res }) => answer(res));
      const err = await shapeError(listTags(h.client, { tag_ids: "t1" }));
      expect(err.method).toBe("GET");
      expect(err.path).toBe("/tags");
      expect(err.status).toBe(200);
      expect(err.requestId).toMatch(/[0-9a-f-]{36}/);
      expect(err.issues.length).toBeGreaterThan(0);
      expect(err.message).toMatch(/GET \/tags failed: 200 OK: unexpected response body/);
      // A GET is safe to repeat: every attempt of the policy was made.
      expect(h.api.requests.filter((r) => r.path === "/tags")).toHaveLength(h.client.retryPolicy.maxAttempts);
    });
  }

  it("says what a non-JSON body was, by its type and first characters, never handing it on as a string", async () => {
    h.api.route("GET", "/things", ({ res }) => sendText(res, 200, HTML, "text/html"));
    const err = await shapeError(h.client.get("/things", { schema: anyJsonSchema }));
    expect(err.issues[0]).toMatch(/body is not JSON \(text\/html, \d+ characters starting "<!doctype html>/);
  });

  it("repeats a garbled answer to a GET and takes the good one that follows", async () => {
    h.api.route("GET", "/tags", ({ res, call }) => (call < 3 ? sendText(res, 200, HTML, "text/html") : sendJson(res, 200, { tags: [{ id: "t1", name: "analytics" }] })));
    expect((await listTags(h.client, {})).map((t) => t.id)).toEqual(["t1"]);
    expect(h.debugLines.some((l) => /retrying GET \/tags\S* after a 200 not JSON/.test(l))).toBe(true);
  });

  it("never repeats a POST whose answer came garbled: the create may have been done", async () => {
    h.api.route("POST", "/tags", ({ res }) => sendText(res, 200, '{"id": "t1", "na', "application/json"));
    await shapeError(h.client.post("/tags", { body: { name: "analytics" }, schema: tagSchema }));
    expect(h.api.requests.filter((r) => r.method === "POST" && r.path === "/tags")).toHaveLength(1);
  });

  it("an HTML page with a 404 is not the API saying the object is gone", async () => {
    h.api.route("GET", "/sources/{id}", ({ res }) => sendText(res, 404, HTML, "text/html"));
    const err = await shapeError(h.client.get("/sources/{id}", { params: { id: "s1" }, schema: anyJsonSchema }));
    expect(err.status).toBe(404);
    expect(isNotFound(err)).toBe(false);
  });

  it("the API's own 404 still means gone", async () => {
    h.api.route("GET", "/sources/{id}", ({ res }) => sendJson(res, 404, { detail: "Source not found" }));
    const err = await h.client.get("/sources/{id}", { params: { id: "s1" }, schema: anyJsonSchema }).catch((e: unknown) => e);
    expect(isNotFound(err)).toBe(true);
  });

  it("an envelope without its result is another answer than the API's, not an empty page", async () => {
    h.api.route("GET", "/sources", ({ res }) => sendJson(res, 200, { page: 1, page_size: 100 }));
    const err = await shapeError(h.client.listAll("/sources", {}, z.looseObject({ id: z.string() })));
    expect(err.issues.join(" ")).toMatch(/result/);
  });
});

describe("an answer over the size bound", () => {
  const BOUND = 64 * 1024;

  it("announced by its length is refused unread, with the setting to raise", async () => {
    h.api.route("GET", "/sources", ({ res }) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(BOUND * 4) });
      // Only the head is ever written: the client must not wait for, or read, the rest.
      res.write(`{"result": [${'"x",'.repeat(100)}`);
    });
    const client = h.makeClient({ maxResponseBytes: BOUND, retry: { maxAttempts: 1 } });
    const err = await shapeError(client.get("/sources", { schema: anyJsonSchema }));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toMatch(/body of 262144 bytes is over the bound of 65536 bytes/);
    expect(err.message).toMatch(/cdc:maxResponseMiB/);
  });

  it("streamed without a length is cut at the bound", async () => {
    h.api.route("GET", "/sources", ({ res }) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"result": [');
      // Bounded: twice the bound, then the body ends (a client that read on would still finish).
      const chunk = `${'"padding",'.repeat(1000)}`;
      for (let sent = 0; sent < BOUND * 2; sent += chunk.length) res.write(chunk);
      res.end('"end"]}');
    });
    const client = h.makeClient({ maxResponseBytes: BOUND, retry: { maxAttempts: 1 } });
    const err = await shapeError(client.get("/sources", { schema: anyJsonSchema }));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toMatch(/over the bound of 65536 bytes/);
  });

  it("an answer within the bound is read as before", async () => {
    h.api.route("GET", "/sources", ({ res }) => sendJson(res, 200, { result: [] }));
    const client = h.makeClient({ maxResponseBytes: BOUND });
    expect(await client.get("/sources", { schema: anyJsonSchema })).toEqual({ result: [] });
  });
});
