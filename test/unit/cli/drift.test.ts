import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runDrift, type DriftDeps } from "../../../cli/drift.js";
import type { PulumiResult } from "../../../cli/pulumi.js";
import { AuthError, DEFAULT_TUNING, type CdcClient, type CdcSettings, type Tuning } from "../../../provider/client/index.js";

// runDrift with the Pulumi CLI and the API replaced by fakes: the wiring (which settings win,
// what is printed where, exit codes) without processes or sockets. The real CLI and API are
// exercised by test/contract/cli.

const encrypted = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:x:y" };
const CLIENT_SECRET = "stack-config-client-secret-7f3a";

const checkpoint = {
  version: 3,
  deployment: {
    resources: [
      {
        urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/cdc:Source::orders",
        type: "pulumi-nodejs:dynamic/cdc:Source",
        id: "s1",
        outputs: { name: "orders", connector: "postgresql", config: { "database.hostname": "db", "database.password": encrypted }, desiredState: "active" },
      },
    ],
  },
};

type Answer = Partial<PulumiResult>;

interface Harness {
  deps: DriftDeps;
  out: string[];
  err: string[];
  calls: string[][];
  settings: CdcSettings[];
  tunings: Tuning[];
}

function harness(
  opts: { answers?: (args: readonly string[]) => Answer | undefined; env?: NodeJS.ProcessEnv; live?: Record<string, unknown> | Error; extraConfig?: Record<string, string> } = {},
): Harness {
  const out: string[] = [];
  const err: string[] = [];
  const calls: string[][] = [];
  const settings: CdcSettings[] = [];
  const tunings: Tuning[] = [];
  const config: Record<string, string> = { "cdc:apiUrl": "http://127.0.0.1:1", "cdc:clientId": "from-stack", "cdc:clientSecret": CLIENT_SECRET, ...opts.extraConfig };
  const defaultAnswer = (args: readonly string[]): Answer => {
    if (args[0] === "stack" && args[1] === "export") return { stdout: JSON.stringify(checkpoint) };
    if (args[0] === "stack" && args[1] === "--show-name") return { stdout: "selected\n" };
    if (args[0] === "config" && args[1] === "--json") {
      // As Pulumi prints it: secret values left out unless --show-secrets.
      const shown = args.includes("--show-secrets");
      const secret = (key: string) => key === "cdc:clientSecret";
      return { stdout: JSON.stringify(Object.fromEntries(Object.entries(config).map(([k, v]) => [k, secret(k) ? (shown ? { value: v, secret: true } : { secret: true }) : { value: v, secret: false }]))) };
    }
    return { code: 1, stderr: "error: unexpected command\n" };
  };
  const live = opts.live ?? { id: "s1", name: "orders", connector: "postgresql", config: { "database.hostname": "db", "database.password": "********" }, connector_status: "Active" };
  // The drift check lists each kind (GET /sources, one page here), and asks for an object by id
  // only when the listing lacks it.
  const fakeClient = {
    async get() {
      if (live instanceof Error) throw live;
      return { result: [live], page: 1, page_size: 100, total: 1, has_next: false };
    },
    async findOne() {
      if (live instanceof Error) throw live;
      return live;
    },
    async close() {},
  } as unknown as CdcClient;
  const deps: DriftDeps = {
    runPulumi: async (args) => {
      calls.push([...args]);
      const answer = opts.answers?.(args) ?? defaultAnswer(args);
      return { code: 0, stdout: "", stderr: "", ...answer };
    },
    env: opts.env ?? {},
    cwd: process.cwd(),
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    now: () => new Date("2026-01-01T00:00:00.000Z"),
    createClient: (s, t) => {
      settings.push(s);
      tunings.push(t);
      return fakeClient;
    },
  };
  return { deps, out, err, calls, settings, tunings };
}

describe("runDrift", () => {
  it("reads the checkpoint and API settings of the given stack, in the given directory, and exits 0 when clean", async () => {
    const h = harness();
    const { code, run } = await runDrift({ stack: "dev", format: "json" }, h.deps);
    expect(code).toBe(0);
    expect(h.err).toEqual([]);
    expect(JSON.parse(h.out.join(""))).toMatchObject({ stack: "dev", clean: true, resources: [{ type: "source", id: "s1", drift: { detected: false } }] });
    expect(run?.clean).toBe(true);
    // The checkpoint and one config listing with its secrets decrypted, side by side: two Pulumi CLI
    // start-ups, not one per settings key.
    expect(h.calls).toContainEqual(["stack", "export", "--stack", "dev"]);
    expect(h.calls.map((c) => c.join(" ")).sort()).toEqual(["config --json --show-secrets --stack dev", "stack export --stack dev"]);
    expect(h.settings).toEqual([{ apiUrl: "http://127.0.0.1:1", clientId: "from-stack", clientSecret: CLIENT_SECRET, createdFrom: "terraform" }]);
  });

  it("prefers stack config over the environment, and falls back to CDC_* for keys the stack does not set", async () => {
    const env = { CDC_API_URL: "http://127.0.0.1:2", CDC_CLIENT_ID: "from-env", CDC_CLIENT_SECRET: "env-secret-value" };
    const withConfig = harness({ env });
    await runDrift({ stack: "dev", format: "human" }, withConfig.deps);
    expect(withConfig.settings[0]).toMatchObject({ apiUrl: "http://127.0.0.1:1", clientId: "from-stack", clientSecret: CLIENT_SECRET });

    const notSet = (args: readonly string[]): Answer | undefined =>
      args[0] === "config" && args[1] === "get"
        ? { code: 1, stderr: `error: configuration key '${args[2]}' not found for stack 'dev'` }
        : args[0] === "config" && args[1] === "--json"
          ? { stdout: "{}" }
          : undefined;
    const fromEnv = harness({ env, answers: notSet });
    expect((await runDrift({ stack: "dev", format: "human" }, fromEnv.deps)).code).toBe(0);
    expect(fromEnv.settings[0]).toMatchObject({ apiUrl: "http://127.0.0.1:2", clientId: "from-env", clientSecret: "env-secret-value" });
  });

  it("runs its client with the stack's cdc:maxConcurrency, retry settings and cdc:createdFrom, as the provider would", async () => {
    const h = harness({ extraConfig: { "cdc:maxConcurrency": "32", "cdc:retryAttempts": "3", "cdc:createdFrom": "pulumi" } });
    expect((await runDrift({ stack: "dev", format: "json" }, h.deps)).code).toBe(0);
    expect(h.tunings[0]).toMatchObject({ maxConcurrency: 32, retry: { maxAttempts: 3 } });
    expect(h.settings[0]).toMatchObject({ createdFrom: "pulumi" });
    // Unset: the defaults, the environment's where it has them.
    const d = harness({ env: { CDC_MAX_CONCURRENCY: "4" } });
    await runDrift({ stack: "dev", format: "json" }, d.deps);
    expect(d.tunings[0]).toMatchObject({ maxConcurrency: 4, retry: { maxAttempts: DEFAULT_TUNING.retry.maxAttempts } });
  });

  it("uses the selected stack when --stack is not given", async () => {
    const h = harness();
    await runDrift({ format: "json" }, h.deps);
    expect(h.calls[0]).toEqual(["stack", "--show-name"]);
    expect(h.calls).toContainEqual(["stack", "export", "--stack", "selected"]);
    expect(h.calls).toContainEqual(["config", "--json", "--show-secrets", "--stack", "selected"]);
    expect(JSON.parse(h.out.join("")).stack).toBe("selected");
  });

  it("exits 2 and prints the report on drift", async () => {
    const h = harness({ live: { id: "s1", name: "orders", connector: "postgresql", config: { "database.hostname": "elsewhere" }, connector_status: "Active" } });
    const { code } = await runDrift({ stack: "dev", format: "human" }, h.deps);
    expect(code).toBe(2);
    expect(h.out.join("")).toContain("✗ source orders (id s1): drift\n");
    expect(h.out.join("")).toContain("    +database.hostname: elsewhere\n");
  });

  it("exits 1 with Pulumi's own error line (and nothing on stdout) when the stack cannot be read", async () => {
    const h = harness({ answers: (args) => (args[1] === "export" ? { code: 255, stderr: "warning: x\nerror: no stack named 'nope' found\n" } : undefined) });
    const { code } = await runDrift({ stack: "nope", format: "json" }, h.deps);
    expect(code).toBe(1);
    expect(h.out).toEqual([]);
    expect(h.err.join("")).toBe("pulumi-cdc drift: `pulumi stack export --stack nope` exited with 255: no stack named 'nope' found\n");
  });

  it("exits 1 naming the missing settings, before any API call, when there are no credentials", async () => {
    const h = harness({
      answers: (args) =>
        args[0] === "config" && args[1] === "get" ? { code: 1, stderr: `error: configuration key '${args[2]}' not found` } : args[0] === "config" ? { stdout: "{}" } : undefined,
    });
    const { code } = await runDrift({ stack: "dev", format: "human" }, h.deps);
    expect(code).toBe(1);
    expect(h.settings).toEqual([]);
    expect(h.err.join("")).toMatch(/CDC API credentials are missing[\s\S]*cdc:clientId is not set/);
  });

  it("fails on a config error other than 'not set' (a wrong passphrase) instead of falling back silently", async () => {
    // Whatever the CLI printed on stdout (decrypted values, with --show-secrets) is never quoted.
    const h = harness({
      answers: (args) =>
        args[0] === "config" && args.includes("--show-secrets")
          ? { code: 255, stdout: `{"cdc:clientSecret": {"value": "${CLIENT_SECRET}"}}`, stderr: "error: incorrect passphrase\n" }
          : undefined,
    });
    const { code } = await runDrift({ stack: "dev", format: "human" }, h.deps);
    expect(code).toBe(1);
    expect(h.err.join("")).toBe("pulumi-cdc drift: `pulumi config --json --show-secrets --stack dev` exited with 255: incorrect passphrase\n");
    expect(h.err.join("")).not.toContain(CLIENT_SECRET);
    expect(h.settings).toEqual([]);
  });

  it("needs neither credentials nor a passphrase for a stack without resources to check: a failed config read is ignored there", async () => {
    const h = harness({
      answers: (args) =>
        args[1] === "export" ? { stdout: JSON.stringify({ version: 3, deployment: { resources: [] } }) } : args[0] === "config" ? { code: 255, stderr: "error: incorrect passphrase\n" } : undefined,
    });
    const { code } = await runDrift({ stack: "dev", format: "human" }, h.deps);
    expect(code).toBe(0);
    expect(h.err).toEqual([]);
    expect(h.settings).toEqual([]);
    expect(h.out.join("")).toBe("Stack dev has no pulumi-cdc resources: nothing to check.\n");
  });

  it("reads the config beside the checkpoint, and reports the checkpoint's error first", async () => {
    const order: string[] = [];
    let releaseExport!: () => void;
    const exportDone = new Promise<void>((r) => (releaseExport = r));
    const h = harness();
    const run = h.deps.runPulumi;
    h.deps.runPulumi = async (args, cwd) => {
      order.push(args.slice(0, 2).join(" "));
      // The checkpoint answers only once the config read has started.
      if (args[1] === "export") await exportDone;
      if (args[0] === "config") releaseExport();
      return run(args, cwd);
    };
    expect((await runDrift({ stack: "dev", format: "json" }, h.deps)).code).toBe(0);
    expect(order.slice(0, 2).sort()).toEqual(["config --json", "stack export"]);

    const wrong = harness({
      answers: (args) => (args[1] === "export" ? { code: 255, stderr: "error: no stack named 'nope' found\n" } : args[0] === "config" ? { code: 255, stderr: "error: no stack named 'nope' found (config)\n" } : undefined),
    });
    expect((await runDrift({ stack: "nope", format: "human" }, wrong.deps)).code).toBe(1);
    expect(wrong.err.join("")).toBe("pulumi-cdc drift: `pulumi stack export --stack nope` exited with 255: no stack named 'nope' found\n");
  });

  it("exits 1 with the API error's message and never the client secret, without a stack trace", async () => {
    const apiError = new AuthError({ method: "GET", path: "/sources/s1", status: 401, detail: `invalid client secret ${CLIENT_SECRET}` });
    const h = harness({ live: apiError });
    const { code } = await runDrift({ stack: "dev", format: "json" }, h.deps);
    expect(code).toBe(1);
    const stderr = h.err.join("");
    expect(stderr).toMatch(/^pulumi-cdc drift: GET \/sources\/s1 failed: 401 Unauthorized/);
    expect(stderr).not.toContain(CLIENT_SECRET);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(h.out).toEqual([]);
  });

  it("redacts an unexpected error too", async () => {
    const h = harness({ live: new Error(`boom while using ${CLIENT_SECRET}`) });
    const { code } = await runDrift({ stack: "dev", format: "human" }, h.deps);
    expect(code).toBe(1);
    expect(h.err.join("")).toBe("pulumi-cdc drift: unexpected error: boom while using [REDACTED]\n");
  });

  it("exits 1 when --cwd is not a directory", async () => {
    const h = harness();
    const { code } = await runDrift({ stack: "dev", cwd: "no/such/dir", format: "human" }, h.deps);
    expect(code).toBe(1);
    expect(h.err.join("")).toMatch(/--cwd .*no\/such\/dir is not a directory/);
    expect(h.calls).toEqual([]);
  });
});

describe("runDrift --format markdown and --summary-file", () => {
  const dir = mkdtempSync(join(tmpdir(), "pulumi-cdc-summary-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const edited = { id: "s1", name: "orders", connector: "postgresql", config: { "database.hostname": "elsewhere", "database.password": "********" }, connector_status: "Active" };

  it("prints the Markdown report on stdout with --format markdown, with the exit code of the others", async () => {
    const h = harness({ live: edited });
    const { code } = await runDrift({ stack: "dev", format: "markdown" }, h.deps);
    expect(code).toBe(2);
    const md = h.out.join("");
    expect(md).toContain("| kind | name | what changed | fix |");
    expect(md).toContain("| source | orders (id s1) | -database.hostname: db<br>+database.hostname: elsewhere | `pulumi up` puts the program's config back");
    const clean = harness();
    expect((await runDrift({ stack: "dev", format: "markdown" }, clean.deps)).code).toBe(0);
    expect(clean.out.join("")).toBe("**pulumi-cdc drift**: no drift, the 1 resource of stack dev match the API.\n");
  });

  it("appends the Markdown report to the summary file whatever --format is, and never truncates it", async () => {
    const file = join(dir, "step-summary.md");
    writeFileSync(file, "## Earlier step\n\nits own text\n");
    const h = harness({ live: edited, env: {} });
    h.deps.cwd = dir;
    const { code } = await runDrift({ stack: "dev", format: "json", summaryFile: "step-summary.md" }, h.deps);
    expect(code).toBe(2);
    // stdout keeps its format.
    expect(JSON.parse(h.out.join("")).clean).toBe(false);
    const first = readFileSync(file, "utf8");
    expect(first.startsWith("## Earlier step\n\nits own text\n\n**pulumi-cdc drift**: drift, 1 of 1 resource of stack dev changed outside Pulumi.\n")).toBe(true);
    expect(first).toContain("+database.hostname: elsewhere");

    const again = harness();
    again.deps.cwd = dir;
    expect((await runDrift({ stack: "dev", format: "human", summaryFile: file }, again.deps)).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(`${first}\n**pulumi-cdc drift**: no drift, the 1 resource of stack dev match the API.\n`);
    expect(again.out.join("")).toContain("✓ source orders (id s1): no drift");
  });

  it("creates a missing file in an existing directory", async () => {
    const file = join(dir, "new.md");
    const h = harness();
    expect((await runDrift({ stack: "dev", format: "human", summaryFile: file }, h.deps)).code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe("**pulumi-cdc drift**: no drift, the 1 resource of stack dev match the API.\n");
  });

  it("fails first, naming the flag, when the file's directory is missing or the path is a directory: no Pulumi call, no API call", async () => {
    const missing = harness();
    expect((await runDrift({ stack: "dev", format: "human", summaryFile: join(dir, "no-such-dir", "s.md") }, missing.deps)).code).toBe(1);
    expect(missing.err.join("")).toBe(`pulumi-cdc drift: --summary-file ${join(dir, "no-such-dir", "s.md")}: the directory ${join(dir, "no-such-dir")} does not exist: create it, or give a file in an existing directory\n`);
    expect(missing.calls).toEqual([]);
    expect(missing.settings).toEqual([]);
    expect(missing.out).toEqual([]);

    // A file where a directory should be.
    writeFileSync(join(dir, "plain-file"), "x");
    const notDir = harness();
    expect((await runDrift({ stack: "dev", format: "human", summaryFile: join(dir, "plain-file", "s.md") }, notDir.deps)).code).toBe(1);
    expect(notDir.err.join("")).toMatch(/--summary-file .*plain-file\/s\.md: the directory .*plain-file does not exist/);

    mkdirSync(join(dir, "a-dir"));
    const isDir = harness();
    expect((await runDrift({ stack: "dev", format: "human", summaryFile: join(dir, "a-dir") }, isDir.deps)).code).toBe(1);
    expect(isDir.err.join("")).toContain("is a directory: give a file path");
    expect(isDir.calls).toEqual([]);
  });

  it.skipIf(process.getuid?.() === 0)("fails first, naming the flag, when the file is not writable (not as root, who may write anyway)", async () => {
    const file = join(dir, "read-only.md");
    writeFileSync(file, "", { mode: 0o444 });
    const h = harness();
    expect((await runDrift({ stack: "dev", format: "human", summaryFile: file }, h.deps)).code).toBe(1);
    expect(h.err.join("")).toContain(`--summary-file ${file} is not writable`);
    expect(h.calls).toEqual([]);
  });

  it("says in the summary that the check failed when it fails after the file was checked, secrets redacted", async () => {
    const file = join(dir, "failed.md");
    const h = harness({ live: new Error(`boom while using ${CLIENT_SECRET} | pipe`) });
    expect((await runDrift({ stack: "dev", format: "human", summaryFile: file }, h.deps)).code).toBe(1);
    const text = readFileSync(file, "utf8");
    expect(text).toBe("**pulumi-cdc drift**: error, unexpected error: boom while using \\[REDACTED\\] \\| pipe\n");
    expect(text).not.toContain(CLIENT_SECRET);
  });

  it("reads every settings key the stack holds as a secret from the same decrypted listing", async () => {
    const h = harness({
      answers: (args) =>
        args[0] === "config" && args[1] === "--json"
          ? {
              stdout: JSON.stringify(
                args.includes("--show-secrets")
                  ? { "cdc:apiUrl": { value: "http://127.0.0.1:1", secret: false }, "cdc:clientId": { value: "secret-id", secret: true }, "cdc:clientSecret": { value: CLIENT_SECRET, secret: true } }
                  : { "cdc:apiUrl": { value: "http://127.0.0.1:1", secret: false }, "cdc:clientId": { secret: true }, "cdc:clientSecret": { secret: true } },
              ),
            }
          : undefined,
    });
    expect((await runDrift({ stack: "dev", format: "json" }, h.deps)).code).toBe(0);
    expect(h.calls.map((c) => c.slice(0, 2).join(" ")).sort()).toEqual(["config --json", "stack export"]);
    expect(h.settings[0]).toMatchObject({ apiUrl: "http://127.0.0.1:1", clientId: "secret-id", clientSecret: CLIENT_SECRET });
  });
});
