import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run } from "../lib/process.js";
import { caseName, outputMismatches, type Outcome } from "./results.js";
import { terraformEnv, writeDevOverride } from "./terraform.js";

/**
 * Conformance cases of our own: Terraform programs (scripts/conformance/cases/<folder>/main.tf)
 * that the vendor's acceptance tests do not cover against an empty tenant, applied with the
 * vendor's provider (built from the clone, a dev override: no registry) against the emulator.
 * A case passes when the apply succeeds, `terraform output -json` has the values of its
 * expect.json, a second plan has no changes, and the destroy succeeds.
 */

export interface ConformanceCase {
  name: string;
  dir: string;
}

export interface CaseResult {
  outcome: Outcome;
  /** What went wrong, a few lines ([] when it passed). */
  lines: string[];
  /** The whole of what terraform printed, for the run's log. */
  output: string;
}

export interface CaseContext {
  terraform: string;
  /** The folder of the built terraform-provider-streamkap. */
  providerDir: string;
  emulator: { url: string; clientId: string; secret: string };
  say: (line: string) => void;
}

export function conformanceCases(casesDir: string): ConformanceCase[] {
  if (!existsSync(casesDir)) return [];
  return readdirSync(casesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(casesDir, d.name, "main.tf")))
    .map((d) => ({ name: caseName(d.name), dir: join(casesDir, d.name) }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A step's time limit: the emulator answers at once, so minutes mean a hang. */
const STEP_MS = 10 * 60_000;

export async function runCase(c: ConformanceCase, ctx: CaseContext): Promise<CaseResult> {
  const dir = await mkdtemp(join(tmpdir(), "pulumi-cdc-conformance-case-"));
  const expected = (JSON.parse(readFileSync(join(c.dir, "expect.json"), "utf8")) as { outputs?: Record<string, unknown> }).outputs ?? {};
  await cp(join(c.dir, "main.tf"), join(dir, "main.tf"));
  // The provider built from the clone and nothing else: no registry, no plugin cache.
  const cliConfig = await writeDevOverride(dir, ctx.providerDir);
  const env: NodeJS.ProcessEnv = {
    ...terraformEnv(cliConfig, ctx.emulator),
    TF_VAR_prefix: `conformance-${c.name.toLowerCase().replace(/_/g, "-")}-${process.pid}`,
  };
  let output = "";
  const terraform = async (...args: string[]) => {
    ctx.say(`${c.name}: terraform ${args[0]}`);
    // `output` reads the state only: it takes no -input.
    const flags = args[0] === "output" ? ["-no-color"] : ["-input=false", "-no-color"];
    const ran = await run(ctx.terraform, [...args, ...flags], { cwd: dir, env, timeoutMs: STEP_MS, group: false });
    output += `$ terraform ${args.join(" ")}\n${ran.output}\n`;
    return ran;
  };
  const errorLines = (text: string) => text.split("\n").filter((l) => /Error|error|expected|inconsistent|unexpected|does not exist/.test(l)).slice(0, 8);
  let applied = false;
  try {
    const apply = await terraform("apply", "-auto-approve");
    applied = true;
    if (apply.code !== 0) return { outcome: "fail", lines: [`terraform apply exited ${apply.code}`, ...errorLines(apply.output)], output };
    const shown = await terraform("output", "-json");
    const mismatches = shown.code === 0 ? outputMismatches(expected, JSON.parse(shown.stdout || "{}") as Record<string, { value?: unknown }>) : [`terraform output exited ${shown.code}`];
    if (mismatches.length > 0) return { outcome: "fail", lines: mismatches, output };
    // -detailed-exitcode: 0 no changes, 2 changes (a perpetual diff), 1 an error.
    const plan = await terraform("plan", "-detailed-exitcode");
    if (plan.code !== 0) return { outcome: "fail", lines: [`the plan after the apply exited ${plan.code} (2: it has changes)`, ...errorLines(plan.output)], output };
    const destroy = await terraform("destroy", "-auto-approve");
    applied = destroy.code !== 0;
    if (destroy.code !== 0) return { outcome: "fail", lines: [`terraform destroy exited ${destroy.code}`, ...errorLines(destroy.output)], output };
    return { outcome: "pass", lines: [], output };
  } finally {
    // After a failure, what was applied must not stay in the emulator the run shares.
    if (applied) await terraform("destroy", "-auto-approve");
    await rm(dir, { recursive: true, force: true });
  }
}
