import { afterEach, describe, expect, it } from "vitest";
import { anyJsonSchema, CdcApiError, ValidationError } from "../../../provider/client/index.js";
import { MAX_DETAIL_CHARS } from "../../../provider/client/errors.js";
import { CLIENT_SECRET, sendJson } from "./fake-api.js";
import { startHarness, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const MB = 1024 * 1024;
// The API's words quoted in a message are cut at MAX_DETAIL_CHARS (500); the rest of a message
// (method, path, status, request id, attempts) is well under another 500.
const SHORT = MAX_DETAIL_CHARS + 500;
const DB_PASSWORD = "pg-password-Echoed-Back-77";

async function failure(p: Promise<unknown>): Promise<CdcApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CdcApiError);
  return err as CdcApiError;
}

/** Everything of an error that can reach a person: its message, its stack, its fields. */
const everything = (err: CdcApiError) => [err.message, String(err.stack), JSON.stringify(err), JSON.stringify(err.detail ?? null)].join("\n");

// The vendor's beta.31 ("cap and redact API error bodies surfaced in diagnostics"), against a
// tiny server on 127.0.0.1: no body, however large, makes a long message, and no secret in it
// reaches the message, whether the body quotes it whole or the cut falls inside it.
describe("error bodies in messages", () => {
  it("a 1 MB body, in every form the API answers errors in, makes a message of at most the cap", async () => {
    h = await startHarness();
    const big = "x".repeat(MB);
    const bodies: Record<string, () => [number, unknown]> = {
      text: () => [502, big],
      detail: () => [400, { detail: big }],
      message: () => [409, { detail: { message: big, code: "conflict" } }],
      object: () => [400, { error: big, trace: big.slice(0, 1000) }],
      // 20,000 validation issues, each echoing its input: the framework's 422 at 1 MB and more.
      issues: () => [422, { detail: Array.from({ length: 20_000 }, (_, i) => ({ loc: ["body", "rows", i], msg: "Input should be a valid string", type: "string_type", input: "y".repeat(40) })) }],
    };
    for (const [form, body] of Object.entries(bodies)) {
      h.api.route("POST", `/forms/${form}`, ({ res }) => {
        const [status, value] = body();
        if (typeof value === "string") {
          res.writeHead(status, { "content-type": "text/plain" });
          res.end(value);
        } else sendJson(res, status, value);
      });
    }
    for (const form of Object.keys(bodies)) {
      const err = await failure(h.client.post(`/forms/${form}`, { schema: anyJsonSchema, body: { n: 1 } }));
      expect(err.message.length, `${form}: ${err.message.slice(0, 200)}`).toBeLessThan(SHORT);
      expect(err.message, form).toMatch(/^POST \/forms\/\w+ failed: \d{3} [A-Za-z ]+: /);
      expect(err.message, form).toContain("…");
    }
    // The issues' explanation survives the cut, the first ones first.
    const issues = (await failure(h.client.post("/forms/issues", { schema: anyJsonSchema, body: { n: 1 } }))) as ValidationError;
    expect(issues.message).toContain("422 Unprocessable Entity: body.rows.0: Input should be a valid string; body.rows.1:");
    expect(issues.issues).toHaveLength(20_000);
    // What the error keeps of a text body for code to read is cut too.
    const text = await failure(h.client.post("/forms/text", { schema: anyJsonSchema, body: { n: 1 } }));
    expect(String(text.detail).length).toBeLessThan(5000);
  });

  it("never holds the client secret or a password the request sent, wherever the body quotes it, the cut included", async () => {
    h = await startHarness();
    const secrets = [CLIENT_SECRET, DB_PASSWORD, "hunter2-never-registered-value"];
    // Each body puts a secret somewhere else: first, across the cut, under a key across the cut,
    // last in a megabyte, and in the 422's echoed input.
    const padTo = (n: number) => "a".repeat(n);
    const bodies: Array<[string, number, unknown]> = [
      ["start", 400, { detail: `${CLIENT_SECRET} was refused` }],
      ["across-the-cut", 400, { detail: `${padTo(MAX_DETAIL_CHARS - 15)} ${CLIENT_SECRET} ${padTo(MB)}` }],
      ["password-across-the-cut", 500, `${padTo(MAX_DETAIL_CHARS - 36)} could not log in with ${DB_PASSWORD} ${padTo(MB)}`],
      ["key-across-the-cut", 400, { detail: `${padTo(MAX_DETAIL_CHARS - 30)} {"password": "hunter2-never-registered-value", "n": 1} ${padTo(MB)}` }],
      ["end", 409, { detail: `${padTo(MB)} ${DB_PASSWORD}` }],
      ["echoed-input", 422, { detail: [{ loc: ["body", "config", "database.password"], msg: `bad value ${DB_PASSWORD}`, type: "value_error", input: DB_PASSWORD }] }],
    ];
    for (const [name, status, body] of bodies) {
      h.api.route("PUT", `/sources/${name}`, ({ res }) => {
        if (typeof body === "string") {
          res.writeHead(status, { "content-type": "text/plain" });
          res.end(body);
        } else sendJson(res, status, body);
      });
    }
    for (const [name] of bodies) {
      // A connector's password goes out in the body, as a source's update sends it.
      const err = await failure(h.client.put(`/sources/${name}`, { schema: anyJsonSchema, body: { name: "pg", config: { "database.password": DB_PASSWORD } } }));
      expect(err.message.length, name).toBeLessThan(SHORT);
      const all = everything(err);
      for (const secret of secrets) {
        // Neither the secret nor its head: a cut before masking would leave the head readable.
        expect(all.includes(secret.slice(0, 10)), `${name} leaks ${secret.slice(0, 10)}: ${err.message}`).toBe(false);
      }
    }
  });
});
