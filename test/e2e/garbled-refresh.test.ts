import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULTS_OFF, startEmulator, type FaultSettings, type RunningEmulator } from "../../emulator/index.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { yamlProgram, type YamlProgram } from "../support/yaml.js";

// Issue 49: a `pulumi refresh` while the platform answered `GET /tags` with an HTML page and status
// 200 exited 0 and dropped both tags from the stack (the tag listing was decoded leniently, and
// what it could not read it left out); the next `pulumi up` failed with a 409 on each. The
// invariant: a refresh while the API's answers are garbled either succeeds having kept everything
// or fails naming the answer's shape, and in both cases the stack afterwards holds every resource
// it held before (same URNs, same ids); the next plain `pulumi up` against the healthy API makes
// nothing and meets no 409.
//
// Each host's stack (two tags, a source and a destination carrying them, a pipeline) is refreshed
// three times, the faults arranged by count or by a share of 1 on the routes, never by time:
//  - GET /tags answered each garbled way once (an HTML page, a body cut off, another shape, an
//    oversized body): fewer than the client's attempts, so the refresh rides them out and succeeds;
//  - every GET answered one garbled way, twice with two of the four kinds (the hosts between them
//    meet all four): no attempt can succeed, so the refresh fails, naming the shape problem.

type Host = "dynamic" | "plugin";
type Garble = "html" | "truncated" | "wrongShape" | "oversized";

const RATE = { html: "htmlRate", truncated: "truncatedRate", wrongShape: "wrongShapeRate", oversized: "oversizedRate" } as const;
const NEXT = { html: "htmlNext", truncated: "truncatedNext", wrongShape: "wrongShapeNext", oversized: "oversizedNext" } as const;
const GARBLES = Object.keys(RATE) as Garble[];
/** The kinds each host meets on every GET; the two hosts together meet all four. */
const EVERY_GET: Record<Host, Garble[]> = { plugin: ["html", "oversized"], dynamic: ["truncated", "wrongShape"] };
const HEALTHY: Partial<FaultSettings> = { ...FAULTS_OFF, routes: ["/"], methods: [] };
const READS = { methods: ["GET"] };

interface Held {
  urn: string;
  id: string | undefined;
}

/** Every resource the stack holds, as (URN, id), in URN order. */
async function held(stack: TestStack): Promise<Held[]> {
  const checkpoint = JSON.parse(await stack.exportState()) as { deployment: { resources?: Array<{ urn: string; id?: string }> } };
  return (checkpoint.deployment.resources ?? []).map((r) => ({ urn: r.urn, id: r.id })).sort((a, b) => a.urn.localeCompare(b.urn));
}

function hostStack(host: Host) {
  const env = {} as { emulator: RunningEmulator; stack: TestStack; yaml?: YamlProgram };
  beforeAll(async () => {
    env.emulator = await startEmulator({ port: 0 });
    const fixture = join(__dirname, "fixtures", host === "dynamic" ? "garbled-refresh" : "garbled-refresh-yaml");
    if (host === "plugin") env.yaml = await yamlProgram(fixture);
    env.stack = await TestStack.create(env.yaml?.dir ?? fixture, { stackName: `garbled-${host}` });
    const key = (name: string) => (host === "dynamic" ? `e2e:${name}` : name);
    const secrets = { [key("dbPassword")]: "PG-GARBLED", [key("snowflakeKey")]: "SF-GARBLED" };
    // Short back-offs: the retry policy is the same, the waits are not what is tested.
    await env.stack.useApi(env.emulator, { "cdc:retryBaseDelayMs": "50", "cdc:retryMaxDelayMs": "500" }, secrets);
  });
  afterAll(async () => {
    env.emulator?.setFaults(HEALTHY);
    await env.stack?.cleanup();
    await env.emulator?.stop();
    await env.yaml?.dispose();
  });
  return env;
}

describe.each(["plugin", "dynamic"] as const)("pulumi refresh while the API garbles its answers (%s host)", { timeout: ENGINE_TIMEOUT_MS }, (host) => {
  const env = hostStack(host);

  it("keeps every resource of the stack, same URNs and ids, and the next plain pulumi up meets no 409", async () => {
    const { emulator, stack } = env;
    await stack.preview();
    expect((await stack.up()).stdout).toMatch(/\+ 6 created/);
    const before = await held(stack);
    expect(before.filter((r) => /::(team|pii)$/.test(r.urn))).toHaveLength(2);

    // The tag listing answered each garbled way once, then as the API: the retries ride it out.
    // --skip-preview on these refreshes: a refresh's preview reads every object as the refresh
    // does, so it would meet the faults counted here first; what is under test is what the
    // refresh itself writes into the stack (a plain preview and up run before and after).
    emulator.resetStats();
    emulator.setFaults({ ...Object.fromEntries(GARBLES.map((g) => [NEXT[g], 1])), routes: ["/tags"], ...READS });
    const riddenOut = await stack.run(["refresh", "--yes", "--skip-preview"], { allowFailure: true });
    emulator.setFaults(HEALTHY);
    expect(await held(stack), "after the refresh with GET /tags garbled").toEqual(before);
    expect(riddenOut.code, riddenOut.output).toBe(0);
    for (const g of GARBLES) expect(emulator.stats().faults[g], `${g} on GET /tags`).toBe(1);

    // Every GET answered one garbled way: no attempt can succeed, the refresh must fail and say why.
    for (const g of EVERY_GET[host]) {
      emulator.resetStats();
      emulator.setFaults({ [RATE[g]]: 1, routes: ["/"], ...READS });
      const refused = await stack.run(["refresh", "--yes", "--skip-preview"], { allowFailure: true });
      emulator.setFaults(HEALTHY);
      expect(await held(stack), `after the refresh with every GET ${g}`).toEqual(before);
      expect(refused.code, refused.output).not.toBe(0);
      expect(refused.output).toMatch(/unexpected response body/);
      expect(emulator.stats().faults[g], `${g} on every GET`).toBeGreaterThan(0);
    }

    const up = await stack.up();
    expect(up.output).not.toMatch(/\b409\b|already exists/);
    expect(up.stdout).not.toMatch(/\+ \d+ created/);
    expect(await held(stack)).toEqual(before);
  });
});
