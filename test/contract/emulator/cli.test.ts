import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCliArgs } from "../../../emulator/cli-args.js";
import { call } from "./helpers.js";

/**
 * The CLI as users run it: the package's bin `pulumi-cdc-emulator` (package.json), the entry point
 * `npm run build` compiled into dist/ (npm test's set-up builds before any test runs, as it does
 * for the other suites that start the built CLIs), started as a separate node process, talked to
 * over HTTP, stopped with signals.
 */

const repo = resolve(__dirname, "../../..");
const cli = join(repo, "dist", "emulator", "cli.js");
const children = new Set<ChildProcessWithoutNullStreams>();

beforeAll(() => {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  const bin = (JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { bin: Record<string, string> }).bin["pulumi-cdc-emulator"];
  expect(join(repo, bin!)).toBe(cli);
});

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

interface Started {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  exited: Promise<number | null>;
}

function run(args: string[]): { child: ChildProcessWithoutNullStreams; output: () => { stdout: string; stderr: string }; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [cli, ...args], {
    env: process.env,
    stdio: "pipe",
  });
  children.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  return { child, output: () => ({ stdout, stderr }), exited };
}

/** Starts the CLI and waits (bounded) for its listening line. */
async function startCli(args: string[]): Promise<Started> {
  const proc = run(args);
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`CLI did not report listening: ${JSON.stringify(proc.output())}`)), 20_000);
    const check = () => {
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(proc.output().stdout);
      if (match) {
        clearTimeout(timer);
        done(match[1]!);
      }
    };
    proc.child.stdout.on("data", check);
    proc.exited.then(() => {
      clearTimeout(timer);
      fail(new Error(`CLI exited early: ${JSON.stringify(proc.output())}`));
    });
  });
  return { child: proc.child, url, stdout: () => proc.output().stdout, exited: proc.exited };
}

describe("pulumi-cdc-emulator CLI", () => {
  it("keeps the shebang in the compiled entry point", () => {
    expect(readFileSync(cli, "utf8").split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("prints the address and credentials, serves the API, and stops cleanly on SIGTERM", async () => {
    const started = await startCli(["--port", "0", "--client-id", "ci-bot", "--client-secret", "ci-secret", "--token-ttl", "120"]);
    expect(started.stdout()).toContain("client id: ci-bot");
    expect(started.stdout()).toContain("client secret: ci-secret");
    const token = await call(started.url, "POST", "/auth/access-token", { body: { client_id: "ci-bot", secret: "ci-secret" } });
    expect(token.status).toBe(200);
    expect(token.body.expiresIn).toBe(120);
    expect((await call(started.url, "GET", "/sources", { token: token.body.accessToken })).status).toBe(200);
    started.child.kill("SIGTERM");
    expect(await started.exited).toBe(0);
    expect(started.stdout()).toContain("stopped");
    await expect(call(started.url, "GET", "/auth/roles")).rejects.toThrow();
  });

  it("uses the documented default credentials and stops on SIGINT", async () => {
    const started = await startCli(["--port", "0"]);
    expect(started.stdout()).toContain("client id: cdc-local");
    expect(started.stdout()).toContain("client secret: cdc-local-secret");
    const token = await call(started.url, "POST", "/auth/access-token", { body: { client_id: "cdc-local", secret: "cdc-local-secret" } });
    expect(token.body.expiresIn).toBe(3600);
    started.child.kill("SIGINT");
    expect(await started.exited).toBe(0);
  });

  it("persists to --state across runs", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cdc-emu-cli-state-"));
    try {
      const statePath = join(dir, "state.json");
      const first = await startCli(["--port", "0", "--state", statePath]);
      const t1 = await call(first.url, "POST", "/auth/access-token", { body: { client_id: "cdc-local", secret: "cdc-local-secret" } });
      const tag = await call(first.url, "POST", "/tags", { token: t1.body.accessToken, body: { name: "from-cli", type: ["sources"] } });
      expect(tag.status).toBe(200);
      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      expect(existsSync(statePath)).toBe(true);

      const second = await startCli(["--port", "0", "--state", statePath]);
      expect(second.stdout()).toContain(`state: ${statePath}`);
      const t2 = await call(second.url, "POST", "/auth/access-token", { body: { client_id: "cdc-local", secret: "cdc-local-secret" } });
      expect((await call(second.url, "GET", `/tags/${tag.body.id}`, { token: t2.body.accessToken })).body.name).toBe("from-cli");
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("applies fault flags", async () => {
    const started = await startCli(["--port", "0", "--fail-rate", "1", "--fault-routes", "/sources", "--seed", "3", "--wrong-shape-rate", "0.5"]);
    expect(started.stdout()).toMatch(/faults: .*fail rate 1, wrong shape rate 0.5/);
    const token = await call(started.url, "POST", "/auth/access-token", { body: { client_id: "cdc-local", secret: "cdc-local-secret" } });
    expect(token.status).toBe(200);
    expect((await call(started.url, "GET", "/sources", { token: token.body.accessToken })).status).toBe(503);
    expect((await call(started.url, "GET", "/tags", { token: token.body.accessToken })).status).toBe(200);
    started.child.kill("SIGTERM");
    expect(await started.exited).toBe(0);
  });

  it("exits 2 with a message on bad flags", async () => {
    for (const args of [["--fail-rate", "2"], ["--html-rate", "-1"], ["--oversized-bytes", "3"], ["--host", "0.0.0.0"], ["--port", "http"], ["--bogus"], ["--token-ttl", "0"], ["--fault-routes", "sources"]]) {
      const proc = run(args);
      expect(await proc.exited, args.join(" ")).toBe(2);
      expect(proc.output().stderr).toMatch(/pulumi-cdc-emulator: /);
      expect(proc.output().stderr).toContain("Usage:");
    }
  });

  it("prints usage with --help", async () => {
    const proc = run(["--help"]);
    expect(await proc.exited).toBe(0);
    expect(proc.output().stdout).toContain("--rate-limit <rps>");
  });
});

describe("CLI argument defaults", () => {
  it("documents port 8787 and the cdc-local credential as defaults", () => {
    expect(parseCliArgs([])).toEqual({
      help: false,
      options: { port: 8787, clientId: "cdc-local", clientSecret: "cdc-local-secret", tokenTtlSeconds: 3600, faults: {} },
    });
  });

  it("maps every flag onto the options", () => {
    const parsed = parseCliArgs([
      "--port", "0", "--host", "127.0.0.1", "--client-id", "a", "--client-secret", "b", "--token-ttl", "60",
      "--refresh-token-ttl", "600", "--state", "/tmp/s.json", "--seed", "9", "--latency-ms", "15", "--rate-limit", "2.5",
      "--fail-rate", "0.1", "--drop-rate", "0.05", "--lost-response-rate", "0.02", "--html-rate", "0.03", "--truncated-rate", "0.04",
      "--wrong-shape-rate", "0.06", "--oversized-rate", "0.07", "--oversized-bytes", "1024", "--fault-routes", "/sources, /auth",
    ]);
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 0,
        clientId: "a",
        clientSecret: "b",
        tokenTtlSeconds: 60,
        refreshTokenTtlSeconds: 600,
        statePath: "/tmp/s.json",
        faults: {
          seed: 9,
          latencyMs: 15,
          rateLimit: 2.5,
          failRate: 0.1,
          dropRate: 0.05,
          lostResponseRate: 0.02,
          htmlRate: 0.03,
          truncatedRate: 0.04,
          wrongShapeRate: 0.06,
          oversizedRate: 0.07,
          oversizedBytes: 1024,
          routes: ["/sources", "/auth"],
        },
      },
    });
  });

  it("maps --tenant and --operator, each repeatable, and refuses a tenant without its secret", () => {
    const parsed = parseCliArgs(["--tenant", "acme:acme-secret", "--tenant", "beta:b:c", "--operator", "cdc-local"]);
    expect(parsed).toMatchObject({
      options: {
        tenants: [
          { clientId: "acme", clientSecret: "acme-secret" },
          { clientId: "beta", clientSecret: "b:c" },
        ],
        operators: ["cdc-local"],
      },
    });
    expect(() => parseCliArgs(["--tenant", "acme"])).toThrow(/--tenant must be <client-id>:<client-secret>, got 'acme'/);
    expect(() => parseCliArgs(["--tenant", "acme:"])).toThrow(/--tenant must be/);
  });
});
