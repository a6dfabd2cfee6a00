import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RequestHold } from "../../emulator/index.js";
import { killWhenHeld } from "../../scripts/chaos/kill-tree.js";
import { ENGINE_FLAGS } from "../../scripts/lib/process.js";
import { run, runCdc, runOk, type CommandResult } from "./process.js";

export type { CommandResult } from "./process.js";
/** What every `pulumi` command runs with (named once, in scripts/lib/process.ts, for the scripts and the tests). */
export { ENGINE_FLAGS };

export interface CliOptions {
  /** Environment over the stack's. */
  env?: Record<string, string>;
  /**
   * Leave every CDC_* variable out of the environment, so that the command can take the API's
   * settings only from the stack's config (not from the CDC_* fallbacks).
   */
  stackConfigOnly?: boolean;
}

export interface StackOptions {
  /** Extra environment for every command (CDC_* settings, for example). */
  env?: Record<string, string>;
  stackName?: string;
  /**
   * Run a TypeScript program with ts-node's type check at every engine run, as a user's runs.
   * Off by default: the check costs about 2 s of CPU a run, in hundreds of runs, and
   * test/unit/programs-typecheck.test.ts type-checks every program these stacks run once, with tsc.
   */
  typeCheck?: boolean;
}

/**
 * A Pulumi stack of a program directory, on a private file backend and PULUMI_HOME, driven
 * through the real `pulumi` CLI found on PATH (scripts/toolchain.sh puts it there).
 */
export class TestStack {
  /** The last command run through this object was a whole `pulumi destroy` that succeeded: the stack holds nothing. */
  #destroyed = false;

  private constructor(
    readonly programDir: string,
    readonly stackName: string,
    private readonly home: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  static async create(programDir: string, options: StackOptions = {}): Promise<TestStack> {
    const home = await mkdtemp(join(tmpdir(), "pulumi-cdc-e2e-"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PULUMI_HOME: join(home, "home"),
      PULUMI_BACKEND_URL: `file://${home}`,
      PULUMI_CONFIG_PASSPHRASE: "e2e-passphrase",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      NO_COLOR: "1",
      PULUMI_NODEJS_TRANSPILE_ONLY: options.typeCheck ? "false" : "true",
      ...options.env,
    };
    const stack = new TestStack(programDir, options.stackName ?? "e2e", home, env);
    await stack.run(["stack", "init", stack.stackName]);
    return stack;
  }

  /** The private file backend: every state file, history entry and backup of this stack. */
  get backendDir(): string {
    return this.home;
  }

  /** A copy of the environment the stack's commands run with (backend, passphrase, PULUMI_HOME). */
  environment(): NodeJS.ProcessEnv {
    return { ...this.env };
  }

  /** Runs `pulumi <args>` in the program directory; rejects on a non-zero exit unless allowed. */
  async run(args: string[], opts: { allowFailure?: boolean; env?: Record<string, string> } = {}): Promise<CommandResult> {
    const result = await run("pulumi", [...args, ...ENGINE_FLAGS], { cwd: this.programDir, env: { ...this.env, ...opts.env } });
    this.#destroyed = args[0] === "destroy" && result.code === 0 && !args.some((a) => a.startsWith("--target") || a.startsWith("--exclude"));
    if (result.code !== 0 && !opts.allowFailure) {
      throw new Error(`pulumi ${args.join(" ")} exited with ${result.code}:\n${result.output}`);
    }
    return result;
  }

  /**
   * Runs the built `pulumi-cdc <args> --stack <this stack>` in the program directory with the
   * stack's environment; resolves whatever the exit code.
   */
  cli(args: string[], opts: CliOptions = {}): Promise<CommandResult> {
    this.#destroyed = false;
    const base = opts.stackConfigOnly ? Object.fromEntries(Object.entries(this.env).filter(([k]) => !k.startsWith("CDC_"))) : this.env;
    return runCdc([...args, "--stack", this.stackName], { cwd: this.programDir, env: { ...base, ...opts.env } });
  }

  /** `pulumi-cdc drift --cwd <the program> [args]` on this stack: exit 0 clean, 2 drift, 1 an error. */
  drift(args: string[] = [], opts: CliOptions = {}): Promise<CommandResult> {
    return this.cli(["drift", "--cwd", this.programDir, ...args], opts);
  }

  /** A plain `pulumi up --yes`, which previews first, as every user's does. */
  up(extra: string[] = []) {
    return this.run(["up", "--yes", "--stack", this.stackName, ...extra]);
  }

  /**
   * Runs `pulumi <command> --yes --skip-preview` (the run's writes are what is killed) and kills
   * it with -9, all its processes at once as a crash would, when the emulator's `hold` is
   * reached: by count, never by time (emulator/README.md, "Holds"). Then releases the hold, so
   * the request left waiting is closed unhandled. False when the run ended before the hold; the
   * run's output goes to `log` when given.
   */
  async killWhenHeld(hold: RequestHold, command: "up" | "destroy" = "up", log?: string): Promise<boolean> {
    this.#destroyed = false;
    return (await killWhenHeld([command, "--yes", "--skip-preview", ...ENGINE_FLAGS, "--stack", this.stackName], { cwd: this.programDir, env: this.env, ...(log ? { log } : {}) }, hold)) === "held";
  }

  preview(extra: string[] = [], opts: { allowFailure?: boolean } = {}) {
    return this.run(["preview", "--diff", "--stack", this.stackName, ...extra], opts);
  }

  // Refresh and destroy skip their previews: those plan from state alone (no check, no diff of
  // the program's inputs), so they cannot show what a preview of `up` would, and they double
  // the engine's time in every test.
  refresh(extra: string[] = []) {
    return this.run(["refresh", "--yes", "--skip-preview", "--stack", this.stackName, ...extra]);
  }

  destroy(extra: string[] = []) {
    return this.run(["destroy", "--yes", "--skip-preview", "--stack", this.stackName, ...extra]);
  }

  async setConfig(key: string, value: string, secret = false) {
    await this.run(["config", "set", "--stack", this.stackName, ...(secret ? ["--secret"] : []), key, value]);
  }

  /**
   * Sets several values in one `pulumi config set-all`, the secrets encrypted as `config set
   * --secret` encrypts them (the same stack file): one CLI start and one derivation of the
   * passphrase's key for the lot, where a `config set` each costs a start (and a derivation per
   * secret), some hundreds of them in the suite.
   */
  async setConfigs(plain: Record<string, string>, secrets: Record<string, string> = {}) {
    const args = [
      ...Object.entries(plain).flatMap(([key, value]) => ["--plaintext", `${key}=${value}`]),
      ...Object.entries(secrets).flatMap(([key, value]) => ["--secret", `${key}=${value}`]),
    ];
    if (args.length > 0) await this.run(["config", "set-all", "--stack", this.stackName, ...args]);
  }

  /**
   * Points the stack's provider at an API (the emulator) as a user's `pulumi config set` would,
   * the client secret as a secret, with the stack's other config of the test (in the same
   * `config set-all`).
   */
  async useApi(api: { url: string; clientId: string; clientSecret: string }, plain: Record<string, string> = {}, secrets: Record<string, string> = {}) {
    await this.setConfigs({ "cdc:apiUrl": api.url, "cdc:clientId": api.clientId, ...plain }, { "cdc:clientSecret": api.clientSecret, ...secrets });
  }

  async outputs(): Promise<Record<string, unknown>> {
    const { stdout } = await this.run(["stack", "output", "--json", "--show-secrets", "--stack", this.stackName]);
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  /** The stack's checkpoint as the engine stores it (secrets stay encrypted). */
  async exportState(): Promise<string> {
    return (await this.run(["stack", "export", "--stack", this.stackName])).stdout;
  }

  /**
   * A test's clean-up: destroys what the stack may still hold (unless the last command through
   * this object was a whole destroy that succeeded, which left nothing: a second would only start
   * the CLI to find the stack empty), then disposes of it.
   */
  async cleanup(): Promise<void> {
    if (!this.#destroyed) await this.destroy().catch(() => undefined);
    await this.dispose();
  }

  /**
   * Removes the stack (even with resources left): its config file in the program's directory, the
   * one file of it that `pulumi stack rm` would remove outside the backend, and the private backend,
   * which holds everything else of it (a CLI start less per stack than `pulumi stack rm --force`).
   */
  async dispose(): Promise<void> {
    await rm(join(this.programDir, `Pulumi.${this.stackName}.yaml`), { force: true });
    await rm(this.home, { recursive: true, force: true });
  }
}

export async function pulumiVersion(): Promise<string> {
  return (await runOk("pulumi", ["version"])).stdout.trim();
}

/**
 * A test that drives the engine runs many `pulumi` commands, each a few seconds on an idle
 * machine and several times that on a loaded one: a generous bound, not a speed assertion.
 */
export const ENGINE_TIMEOUT_MS = 900_000;
