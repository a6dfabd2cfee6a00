import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { plain, yamlProgram, type YamlProgram } from "../support/yaml.js";

// YAML programs on the provider plugin that are wrong: the mistakes are named before any API call.

const fixture = (name: string) => join(__dirname, "fixtures", name);

describe("bad YAML programs on the provider plugin under the real engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  const cleanups: Array<() => Promise<void>> = [];

  /** Requests since the last reset, token requests aside. */
  const apiRequests = () => Object.fromEntries(Object.entries(emulator.stats().requests).filter(([route]) => !route.startsWith("POST /auth/access-token")));

  async function stackOf(name: string): Promise<TestStack> {
    const program: YamlProgram = await yamlProgram(fixture(name));
    const stack = await TestStack.create(program.dir, {
      stackName: "e2e",
      env: { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret },
    });
    cleanups.push(() => stack.dispose(), () => program.dispose());
    return stack;
  }

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await emulator?.stop();
  });

  it("a source config with a near-miss key, a wrong type and a missing required key fails preview, naming each, with no API call", async () => {
    const stack = await stackOf("yaml-bad-config");
    emulator.resetStats();
    const preview = await stack.run(["preview", "--stack", stack.stackName], { allowFailure: true });
    const out = plain(preview.output);
    expect(preview.code).not.toBe(0);
    const problems = out.slice(out.indexOf("Diagnostics:"));
    expect(problems).toMatch(/cdc:index:Source \(orders\):/);
    // The engine prints `value {<nil>}` for each: it looks the failure's property up as one
    // top-level key, and these are paths into config.
    const failure = (property: string, reason: string) =>
      `error: cdc:index:Source resource 'orders': property ${property} value {<nil>} has a problem: ${reason}`;
    expect(problems).toContain(failure(`config["database.hostname"]`, `is not a key of the postgresql source connector: did you mean "database.hostname.user.defined"?`));
    expect(problems).toContain(failure(`config["database.port.user.defined"]`, `must be a whole number, got "not-a-port": write it as a number, e.g. 5432`));
    expect(problems).toContain(failure(`config["database.dbname"]`, "is required by the postgresql source connector: add it to config (helper property databaseDbname)"));
    // The near-miss leaves the key it was meant to be unset: that is named too.
    expect(problems).toContain(
      failure(`config["database.hostname.user.defined"]`, "is required by the postgresql source connector: add it to config (helper property databaseHostname)"),
    );
    expect(out).toMatch(/cdc:index:Source\s+orders\s+4 errors/);
    expect(out).not.toContain("BAD-YAML-PASSWORD-5d2e");
    // Nothing reached the API but (at most) a token request.
    expect(apiRequests()).toEqual({});
    expect(emulator.stats().requests["POST /auth/access-token"] ?? 0).toBeLessThanOrEqual(1);
  });

  it("a resource of an unknown type fails preview at pulumi-yaml's type check, before the provider is asked", async () => {
    const stack = await stackOf("yaml-unknown-type");
    emulator.resetStats();
    const preview = await stack.run(["preview", "--stack", stack.stackName], { allowFailure: true });
    const out = plain(preview.output);
    expect(preview.code).not.toBe(0);
    // pulumi-yaml checks every type against the plugin's schema (GetSchema) and stops there, so
    // the provider's own message (kindOfToken's, which lists the kinds) is never reached, and
    // pulumi-yaml's lists nothing.
    expect(out).toContain(`error resolving type of resource mystery: unable to find resource type "cdc:index:Nope" in resource provider "cdc"`);
    expect(out).toMatch(/on Pulumi\.yaml line 7:\s+7:\s+type: cdc:index:Nope/);
    expect(out).not.toContain("pulumi-cdc has cdc:index:Source");
    expect(emulator.stats().total).toBe(0);
  });
});
