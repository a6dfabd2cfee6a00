import { spawn } from "node:child_process";
import { createWriteStream, readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { conformanceCases, runCase, type CaseResult } from "./cases.js";
import { acceptanceTests, outputOf, parseGoTestOutput, selectTests, tally } from "./results.js";
import { buildVendor, conformanceCache, type VendorBuild } from "./vendor.js";
import { run } from "../lib/process.js";

// Builds the vendor's acceptance tests, starts the emulator, runs every test that does not need
// the vendor's own tenant against it, then our own cases (scripts/conformance/cases, applied with
// the vendor's provider built from the clone), and ends with `N passed, N failed`.
const [root, vendor, only] = process.argv.slice(2) as [string, string, string | undefined];
const here = join(root, "scripts", "conformance");
const exclusions = (JSON.parse(readFileSync(join(here, "exclusions.json"), "utf8")) as { tests: Record<string, string> }).tests;
const tfVars = (JSON.parse(readFileSync(join(here, "tf-vars.json"), "utf8")) as { vars: Record<string, string> }).vars;
const cache = conformanceCache();

function say(line: string) {
  process.stderr.write(`[conformance] ${line}\n`);
}

function build(what: VendorBuild): string {
  try {
    return buildVendor(vendor, what, say);
  } catch (error) {
    say(`error: ${(error as Error).message}`);
    process.exit(2);
  }
}

async function startEmulator(): Promise<{ url: string; clientId: string; secret: string; stop: () => void }> {
  const child = spawn(process.execPath, [join(root, "dist", "emulator", "cli.js"), "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  let text = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const m = /listening on (\S+)/.exec(text);
      if (m && /client secret: \S+/.test(text)) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before listening`)));
  });
  const clientId = /client id: (\S+)/.exec(text)![1]!;
  const secret = /client secret: (\S+)/.exec(text)![1]!;
  return { url, clientId, secret, stop: () => child.kill("SIGTERM") };
}

async function main() {
  const providerDir = join(vendor, "internal", "provider");
  const sources = readdirSync(providerDir).filter((f) => f.endsWith("_test.go")).map((f) => readFileSync(join(providerDir, f), "utf8"));
  const all = acceptanceTests(sources);
  const selected = selectTests(all, exclusions, only);
  const excluded = all.filter((name) => name in exclusions);
  const cases = conformanceCases(join(here, "cases")).filter((c) => selectTests([c.name], exclusions, only).length > 0);
  say(`${all.length} acceptance tests; ${excluded.length} excluded (emulator/README.md, "Conformance"); running ${selected.length}, and ${cases.length} case(s) of our own`);
  if (selected.length === 0 && cases.length === 0) {
    say("error: no test selected");
    process.exit(2);
  }
  const binary = selected.length > 0 ? build("tests") : undefined;
  const provider = cases.length > 0 ? build("provider") : undefined;
  const emulator = await startEmulator();
  say(`emulator at ${emulator.url}`);
  const logPath = join(cache, "last-run.log");
  const log = createWriteStream(logPath);
  let output = "";
  const caseResults = new Map<string, CaseResult>();
  try {
    const take = (s: string) => {
      output += s;
      log.write(s);
      for (const line of s.split("\n")) if (/^--- (PASS|FAIL|SKIP)/.test(line)) say(line);
    };
    if (binary) {
      // The binary's own -test.timeout ends it first; this bound is for a hang past that.
      const { code: status } = await run(binary, ["-test.run", `^(${selected.join("|")})$`, "-test.v", "-test.count=1", "-test.timeout=80m"], {
        cwd: providerDir,
        env: {
          ...process.env,
          ...tfVars,
          TF_ACC: "1",
          STREAMKAP_HOST: emulator.url,
          STREAMKAP_CLIENT_ID: emulator.clientId,
          STREAMKAP_SECRET: emulator.secret,
          CHECKPOINT_DISABLE: "1",
          TF_IN_AUTOMATION: "1",
          // The machine's own CLI configuration (provider mirrors, credentials) stays out of the run.
          TF_CLI_CONFIG_FILE: "/dev/null",
        },
        timeoutMs: 85 * 60_000,
        onOutput: take,
        group: false,
      });
      say(`go test exited ${status}; full output in ${logPath}`);
    }
    for (const c of cases) {
      const result = await runCase(c, { terraform: process.env.TF_ACC_TERRAFORM_PATH!, providerDir: dirname(provider!), emulator, say });
      caseResults.set(c.name, result);
      log.write(`=== CASE ${c.name}\n${result.output}--- ${result.outcome.toUpperCase()}: ${c.name}\n`);
      say(`--- ${result.outcome.toUpperCase()}: ${c.name}`);
    }
  } finally {
    emulator.stop();
    log.end();
  }
  const by = tally(selected, parseGoTestOutput(output));
  for (const [name, result] of caseResults) by[result.outcome].push(name);
  for (const name of by.fail) {
    const lines = caseResults.get(name)?.lines ?? outputOf(output, name).split("\n").filter((l) => /Error|error|expected|got|Step \d|inconsistent|unexpected/.test(l)).slice(0, 8);
    process.stdout.write(`FAIL ${name}\n${lines.map((l) => `    ${l.trim()}`).join("\n")}\n`);
  }
  for (const name of by.skip) process.stdout.write(`SKIP ${name}\n`);
  process.stdout.write(`excluded: ${excluded.length} (reasons in scripts/conformance/exclusions.json and emulator/README.md)\n`);
  process.stdout.write(`${by.pass.length} passed, ${by.fail.length} failed${by.skip.length ? `, ${by.skip.length} skipped` : ""}\n`);
  process.exitCode = by.fail.length > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
  say(`error: ${(error as Error).message}`);
  process.exit(2);
});
