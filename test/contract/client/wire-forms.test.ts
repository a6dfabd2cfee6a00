// The forms in which the platform and the seed could answer the same call: pulumi-cdc reads both.
import { afterEach, describe, expect, it } from "vitest";
import { anyJsonSchema, ConflictError, ValidationError } from "../../../provider/client/index.js";
import { listTags } from "../../../provider/lookup.js";
import { implementationVersionSchema } from "../../../provider/pipelines/schemas.js";
import { sendJson } from "./fake-api.js";
import { startHarness, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const TAG = { id: "t-1", name: "prod", description: "", type: ["sources"], system: false, custom: true };

describe("tag listings", () => {
  it.each([
    ["the platform's {tags: [...]}", { tags: [TAG] }],
    ["the seed's list envelope", { result: [TAG], page: 1, page_size: 100, total: 1, has_next: false }],
    ["a bare list", [TAG]],
  ])("reads %s", async (_what, answer) => {
    h = await startHarness();
    h.api.route("GET", "/tags", ({ res }) => sendJson(res, 200, answer));
    expect(await listTags(h.client, { tag_ids: "t-1" })).toEqual([expect.objectContaining({ id: "t-1", name: "prod" })]);
    expect(h.api.requests.at(-1)?.query.get("tag_ids")).toBe("t-1");
  });
});

describe("transform implementation versions", () => {
  it.each([
    ["a string, as the platform's Terraform client decodes it", "3"],
    ["a number", 3],
  ])("reads version_id given as %s", async (_what, versionId) => {
    h = await startHarness();
    h.api.route("PUT", "/transforms/t-1/implementation_details", ({ res }) =>
      sendJson(res, 200, { transform_id: "t-1", version_id: versionId, implementation: { language: "PYTHON" } }),
    );
    const saved = await h.client.put("/transforms/{id}/implementation_details", {
      params: { id: "t-1" },
      body: { transform_id: "t-1", implementation: { language: "PYTHON" } },
      schema: implementationVersionSchema,
    });
    expect(saved.version_id).toBe("3");
  });
});

describe("a name already taken", () => {
  it.each([
    ["409, as the seed's routes answer", 409, { detail: "A source named 'x' already exists" }],
    ["422 with the words in its issues, as transforms (and at times sources) answer", 422, { detail: [{ loc: ["body", "name"], msg: "Value error, a source named 'x' already exists", type: "value_error", input: "x" }] }],
    ["400, as the platform answers a duplicate tag", 400, { detail: "A tag with identical properties already exists." }],
  ])("is a ConflictError when it comes as %s", async (_what, status, answer) => {
    h = await startHarness();
    h.api.route("POST", "/sources", ({ res }) => sendJson(res, status, answer));
    const err = await h.client.post("/sources", { schema: anyJsonSchema, body: { name: "x" } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect((err as ConflictError).status).toBe(status);
    expect((err as ConflictError).message).toMatch(/already exists/);
  });

  it("leaves other 400 and 422 answers as they were", async () => {
    h = await startHarness();
    h.api.route("POST", "/sources", ({ res }) => sendJson(res, 422, { detail: [{ loc: ["body", "name"], msg: "Field required", type: "missing", input: null }] }));
    expect(await h.client.post("/sources", { schema: anyJsonSchema, body: {} }).catch((e: unknown) => e)).toBeInstanceOf(ValidationError);
  });
});
