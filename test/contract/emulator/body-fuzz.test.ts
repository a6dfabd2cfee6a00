import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUZZ, FuzzTotals, innerPaths, replaceAt, runParameters, text, wild } from "../../support/fuzz.js";
import { seedTenant, type SeededTenant } from "../../support/tenant-seed.js";
import { webClient } from "../../support/web.js";
import { expectApiError, openSession, type Reply, type Session } from "./helpers.js";

/**
 * Every route of the emulator that takes a body, fed arbitrary bodies (JSON of any shape, the API's
 * own objects spoiled in one place, text that is not JSON): never a 5xx; a 422 in the API's shape
 * `{detail: [{loc, msg, type, input}]}` (the SMT chain's in its own documented shape), any other 4xx
 * `{detail: "message"}`; a route that reads a body refuses one that is no JSON object with a 422;
 * and the emulator keeps serving.
 */

const totals = new FuzzTotals("emulator's routes", false);
let s: Session;
let tenant: SeededTenant;
/** The API's own objects, by the first segment of the path they were listed at (`sources`): what bodies start from. */
const objects = new Map<string, Record<string, unknown>[]>();
/** The routes that answer a request with no body with the API's "body: Field required". */
const readsBody = new Set<string>();

const WRITES = ["POST", "PUT", "PATCH"];
const segment = (path: string) => path.split("/")[1] ?? "";

/** An id for each path parameter of the routes, from the seeded tenant: a route with a parameter not here fails, to be given one. */
const PARAMETERS: Record<string, (t: SeededTenant) => string | undefined> = {
  source_id: (t) => t.ids.sources[0],
  destination_id: (t) => t.ids.destinations[0],
  tag_id: (t) => t.ids.tags[0],
  pipeline_id: (t) => t.ids.pipelines[0],
  transform_id: (t) => t.ids.transforms[0],
  topic_id: (t) => t.ids.topics[0],
  connection_id: (t) => t.ids.httpConnections[0],
  job_id: (t) => t.ids.agents[0],
  client_id: (t) => t.credential,
  username: () => KAFKA_USER,
  version: () => "no-version",
};
const KAFKA_USER = "fuzz-reader";

function pathOf(pattern: string): string {
  return pattern.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const id = PARAMETERS[name]?.(tenant);
    if (id === undefined) throw new Error(`the route ${pattern} has a parameter, ${name}, the fuzzing has no id for: add it to PARAMETERS`);
    return encodeURIComponent(id);
  });
}

const writeRoutes = () => s.emulator.routes.filter((r) => WRITES.includes(r.split(" ")[0]!));

beforeAll(async () => {
  s = await openSession();
  const web = webClient(s.emulator);
  try {
    tenant = await seedTenant(web, "fuzz");
  } finally {
    await web.close();
  }
  const user = await s.api("POST", "/kafka-access/kafka-users", { body: { username: KAFKA_USER, password: "correct-horse-battery", kafka_acls: [] } });
  expect(user.status, user.text).toBeLessThan(300);
  for (const route of s.emulator.routes) {
    const [method, path] = route.split(" ") as [string, string];
    if (method !== "GET" || path.includes(":")) continue;
    const listed = await s.api("GET", path);
    const items: unknown[] = Array.isArray(listed.body) ? listed.body : Array.isArray(listed.body?.result) ? listed.body.result : [];
    const found = items.filter((o): o is Record<string, unknown> => o !== null && typeof o === "object" && !Array.isArray(o));
    objects.set(segment(path), [...(objects.get(segment(path)) ?? []), ...found]);
  }
  for (const route of writeRoutes()) {
    const [method, pattern] = route.split(" ") as [string, string];
    const reply = await s.api(method, pathOf(pattern));
    expectApiError(reply);
    if (reply.status === 422) readsBody.add(route);
  }
});
afterAll(async () => {
  console.log(totals.line());
  await s?.emulator.stop();
});

/** The API's objects of a route's area (else all of them), each with one place spoiled: bodies that pass the outer checks and fail deep. */
function spoiled(route: string): fc.Arbitrary<unknown> {
  const area = objects.get(segment(route.split(" ")[1]!));
  const bases = area && area.length > 0 ? area : [...objects.values()].flat();
  return fc.tuple(fc.constantFrom(...bases), fc.nat(), wild).map(([base, at, value]) => {
    const paths = innerPaths(base);
    return paths.length === 0 ? value : replaceAt(base, paths[at % paths.length]!, () => value);
  });
}

/** Text sent as `application/json` that is no JSON document: one kind of body, so a quarter of the JSON ones' runs. */
const TEXT_SHARE = 0.25;
const garbage = fc.oneof(text.filter((t) => !isJson(t)), fc.constantFrom("{", "[1,", '{"a":}', "nul", "{'a': 1}", "\u0000", '{"a": 1} trailing', "NaN", "{\"a\": Infinity}"));

function isJson(t: string): boolean {
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

/**
 * The status a body that is no JSON object gets from a route that reads one: 422, or the 400 the
 * emulator answers any body holding a `__proto__` key with, before it reads it (emulator/README.md).
 */
const refusal = (body: unknown) => (innerPaths(body).some((p) => p[p.length - 1] === "__proto__") ? 400 : 422);

/** JSON's text of a body: NaN and the infinities as null, own `__proto__` keys as keys. */
const json = (body: unknown) => JSON.stringify(body) ?? "null";

async function send(route: string, raw: string): Promise<Reply> {
  const [method, pattern] = route.split(" ") as [string, string];
  totals.cases += 1;
  let reply: Reply;
  try {
    reply = await s.api(method, pathOf(pattern), { rawBody: raw, headers: { "content-type": "application/json" } });
  } catch (err) {
    totals.crashes += 1;
    throw err;
  }
  if (reply.status >= 500) totals.crashes += 1;
  expect(reply.status, `${route} ${raw.slice(0, 300)} → ${reply.text.slice(0, 500)}`).toBeLessThan(500);
  expectApiError(reply);
  if (reply.status >= 400) totals.refused += 1;
  return reply;
}

/** The emulator answers as before: a listing of tags. */
async function stillServes(): Promise<void> {
  const reply = await s.api("GET", "/tags");
  expect(reply.status, reply.text).toBe(200);
}

describe("the emulator's routes that take a body, fed fuzzed bodies", () => {
  it("are found, and each has an id for its parameters", () => {
    expect(writeRoutes().length).toBeGreaterThan(20);
    expect(readsBody.size).toBeGreaterThan(15);
    for (const route of writeRoutes()) expect(() => pathOf(route.split(" ")[1]!)).not.toThrow();
  });
});

describe.each(["POST", "PUT", "PATCH"])("%s routes", (method) => {
  const routes = () => writeRoutes().filter((r) => r.startsWith(`${method} `));

  it("answer any JSON body and any API object spoiled, never with a 5xx", async () => {
    for (const route of routes()) {
      try {
        await fc.assert(
          fc.asyncProperty(fc.oneof(wild, spoiled(route)), async (body) => {
            const reply = await send(route, json(body));
            const object = body !== null && typeof body === "object" && !Array.isArray(body);
            if (readsBody.has(route) && !object) expect(reply.status, `${route} took ${json(body).slice(0, 200)}: ${reply.text.slice(0, 300)}`).toBe(refusal(body));
          }),
          runParameters(`emulator ${route}`),
        );
      } finally {
        await stillServes();
      }
    }
  });

  it("answer text that is not JSON with a 422 where they read a body", async () => {
    for (const route of routes()) {
      try {
        await fc.assert(
          fc.asyncProperty(garbage, async (raw) => {
            const reply = await send(route, raw);
            if (readsBody.has(route) && raw.trim() !== "") expect(reply.status, `${route} took ${raw.slice(0, 200)}: ${reply.text.slice(0, 300)}`).toBe(422);
          }),
          runParameters(`emulator ${route} text`, Math.ceil(FUZZ.runs * TEXT_SHARE)),
        );
      } finally {
        await stillServes();
      }
    }
  });
});
