import { afterEach, describe, expect, it } from "vitest";
import { anyJsonSchema, CdcClient, setDebugLogger } from "../../../provider/client/index.js";
import { CLIENT_ID, CLIENT_SECRET, sendJson } from "./fake-api.js";
import { startHarness, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  setDebugLogger(undefined);
  await h?.close();
  h = undefined;
});

const DB_PASSWORD = "pg-password-Very-Secret-42";

function leaks(text: string, secrets: string[]): string[] {
  return secrets.filter((s) => text.includes(s));
}

describe("no secret or token in errors or debug logs", () => {
  it("across token exchange, refresh, 401 replay, 422 echoing input, and a server quoting the token", async () => {
    h = await startHarness({ expiresIn: 600 });
    const moduleLines: string[] = [];
    setDebugLogger((l) => moduleLines.push(l));
    const messages: string[] = [];
    const capture = async (p: Promise<unknown>) => {
      try {
        await p;
      } catch (e) {
        const err = e as Error & { detail?: unknown };
        messages.push(err.message, String(err.stack), JSON.stringify(err), JSON.stringify(err.detail ?? null));
      }
    };

    h.api.route("POST", "/sources", ({ res, seen }) =>
      sendJson(res, 422, {
        detail: [
          // The framework echoes the offending value in `input`.
          { loc: ["body", "config", "database.password"], msg: "String should have at most 8 characters", type: "string_too_long", input: DB_PASSWORD },
          { loc: ["body", "config"], msg: "Value error", type: "value_error", input: (seen.body as { config: unknown }).config },
        ],
      }),
    );
    h.api.route("GET", "/echo", ({ res, req }) =>
      sendJson(res, 400, { detail: `bad request with headers ${JSON.stringify(req.headers)}` }),
    );
    h.api.route("GET", "/ping", ({ res }) => sendJson(res, 200, { ok: true }));
    h.api.route("PUT", "/destinations/{id}", ({ res, seen }) =>
      sendJson(res, 500, { detail: `crashed on ${JSON.stringify(seen.body)}` }),
    );
    h.api.route("PUT", "/sources/{id}", ({ res, seen }) => {
      const cfg = (seen.body as { config: Record<string, string> }).config;
      // Free text, no key name next to the value: only the registered literal can catch it.
      sendJson(res, 409, { detail: `could not log in as app with ${cfg["sasl.jaas.password"]} ${cfg.note}` });
    });

    await h.client.get("/ping", { schema: anyJsonSchema });
    await capture(
      h.client.post("/sources", { schema: anyJsonSchema,
        body: { name: "pg", connector: "postgres", config: { "database.password": DB_PASSWORD, "database.user": "app" } },
      }),
    );
    await capture(h.client.get("/echo", { schema: anyJsonSchema }));
    await capture(h.client.put("/destinations/{id}", { schema: anyJsonSchema, params: { id: "d" }, body: { config: { password: DB_PASSWORD, ssl_key: DB_PASSWORD } } }));
    await capture(
      h.client.put("/sources/{id}", { schema: anyJsonSchema,
        params: { id: "s" },
        body: { config: { "sasl.jaas.password": `${DB_PASSWORD}-2`, note: "-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----" } },
      }),
    );
    // refresh, then a 401 and replay
    h.clock.now += 590_000;
    await h.client.get("/ping", { schema: anyJsonSchema });
    h.api.revokeAll();
    await h.client.get("/ping", { schema: anyJsonSchema });
    // wrong secret: the fake quotes the whole request body back in its 401 detail
    const wrong = h.makeClient({
      settings: { apiUrl: h.api.url, clientId: CLIENT_ID, clientSecret: "totally-wrong-secret-99", createdFrom: "terraform" },
    });
    await capture(wrong.get("/ping", { schema: anyJsonSchema }));

    const secrets = [CLIENT_SECRET, "totally-wrong-secret-99", DB_PASSWORD, "MIIEabc", ...h.api.issuedTokens, ...h.api.issuedRefreshTokens];
    expect(h.api.issuedTokens.length).toBeGreaterThanOrEqual(3);
    expect(messages.length).toBeGreaterThanOrEqual(20);
    expect(h.debugLines.length).toBeGreaterThan(10);

    for (const text of [...messages, ...h.debugLines]) expect(leaks(text, secrets), text).toEqual([]);
    // The loc/msg explanation survives redaction.
    expect(messages.join("\n")).toContain("body.config.database.password: String should have at most 8 characters");
    // Debug lines describe bodies by their keys.
    expect(h.debugLines.join("\n")).toContain("body {name, connector, config{database.password, database.user}}");
  });

  it("the module-wide logger gets redacted lines too", async () => {
    h = await startHarness();
    const lines: string[] = [];
    setDebugLogger((l) => lines.push(l));
    h.api.route("GET", "/ping", ({ res }) => sendJson(res, 200, { ok: true }));
    const client = new CdcClient({
      settings: { apiUrl: h.api.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, createdFrom: "terraform" },
    });
    try {
      await client.get("/ping", { schema: anyJsonSchema });
    } finally {
      await client.close();
    }
    expect(lines.some((l) => l.includes("GET /ping"))).toBe(true);
    for (const l of lines) expect(leaks(l, [CLIENT_SECRET, ...h.api.issuedTokens])).toEqual([]);
  });
});
