import { existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { terraformEnv, writeDevOverride } from "../../scripts/conformance/terraform.js";
import { buildVendor, cannotBuild } from "../../scripts/conformance/vendor.js";
import { runSync } from "../../scripts/lib/process.js";
import { CDC_CLI, run, runCdc } from "../support/process.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { apiWrites } from "../support/web.js";

// Issue 41, point 3: every resource example the vendor ships (examples/resources/*/*.tf of the
// clone PULUMI_CDC_VENDOR_REPO names) applied to an emulator of its own by terraform with the
// vendor's provider, then moved the way test/e2e/import-terraform-vendor.test.ts moves its
// program: `import --from-terraform` (YAML, compared with the live objects), a preview, an `up`
// with no write, an empty preview, the handover applied by terraform with no write, and a plan
// with nothing to do. One test; it prints each example's result. An example that does not apply
// (not self-contained, or refused) or holds nothing pulumi-cdc adopts is reported with why; a
// write, a change after adoption, a secret in the open or a failed step fails the test.
// PULUMI_CDC_VENDOR_EXAMPLES (a regular expression on `<type>/<file>`) runs some of them only.
// Skipped with one line without the clone, Go or terraform.

const VENDOR = process.env.PULUMI_CDC_VENDOR_REPO;
const terraformMissing = runSync("terraform", ["version"], { timeoutMs: 60_000 }).code !== 0 ? "terraform is not on PATH" : undefined;
const skip = cannotBuild(VENDOR) ?? terraformMissing;
if (skip) console.log(`the vendor's resource examples, imported: skipped (${skip}; set PULUMI_CDC_VENDOR_REPO to a clone)`);

const writes = (emulator: RunningEmulator) => Object.entries(apiWrites(emulator)).map(([r, n]) => `${r} ×${n}`);

/** A value for an example's variable (every one is a string with no default), shaped as its name asks. */
function variableValue(name: string): string {
  if (/whitelist/.test(name)) return "10.0.0.0/8";
  if (/connection_string/.test(name)) return "mongodb+srv://user:example-password@cluster0.example.net/db";
  if (/_url$|_uri$|endpoint/.test(name)) return "https://example.com";
  if (/host/.test(name)) return "db.example.com";
  if (/port/.test(name)) return "5432";
  if (/region/.test(name)) return "us-east-1";
  return `example-${name.replace(/_/g, "-")}-0001`;
}

/** The file without its top-level blocks whose header matches `header` (`resource "t" "n" {`, `output "x" {`). */
function withoutBlocks(text: string, header: (line: string) => boolean): string {
  const lines = text.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!header(lines[i]!)) {
      out.push(lines[i]!);
      continue;
    }
    let depth = 0;
    for (; i < lines.length; i++) {
      depth += (lines[i]!.match(/\{/g) ?? []).length - (lines[i]!.match(/\}/g) ?? []).length;
      if (depth <= 0) break;
    }
  }
  return out.join("\n");
}

/** The `Error:` lines of terraform's output, shortened. */
const errorsOf = (output: string) =>
  output
    .split("\n")
    .map((l) => l.replace(/^[│╷╵\s]+/, "").trim())
    .filter((l, i, all) => /^Error/.test(l) || (i > 0 && /^Error/.test(all[i - 1] ?? "") && l !== ""))
    .slice(0, 4)
    .join(" ")
    .slice(0, 300);

interface Result {
  example: string;
  outcome: "imported" | "not applied" | "nothing adopted" | "FAILED";
  detail: string;
}

describe.skipIf(skip !== undefined)("the vendor's resource examples, applied by terraform and imported", { timeout: 4 * ENGINE_TIMEOUT_MS }, () => {
  let providerDir: string;
  let work: string;
  const results: Result[] = [];
  const filter = process.env.PULUMI_CDC_VENDOR_EXAMPLES ? new RegExp(process.env.PULUMI_CDC_VENDOR_EXAMPLES) : undefined;

  beforeAll(async () => {
    if (!existsSync(CDC_CLI)) throw new Error(`${CDC_CLI} is missing: run \`npm run build\` first`);
    providerDir = dirname(buildVendor(VENDOR!, "provider", () => {}));
    work = await mkdtemp(join(tmpdir(), "pulumi-cdc-tf-examples-"));
  });

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  async function one(type: string, file: string): Promise<Result> {
    const example = `${type}/${file}`;
    const text = await readFile(join(VENDOR!, "examples", "resources", type, file), "utf8");
    // A fragment that uses resources it does not declare (the pipeline's basic.tf) cannot apply alone.
    const declared = new Set([...text.matchAll(/^resource "(streamkap_[a-z0-9_]+)" "([A-Za-z0-9_-]+)"/gm)].map((m) => `${m[1]}.${m[2]}`));
    const undeclared = [...new Set([...text.matchAll(/\b(streamkap_[a-z0-9_]+\.[A-Za-z0-9_-]+)\.[a-z]/g)].map((m) => m[1]!))].filter((r) => !declared.has(r));
    if (undeclared.length > 0) return { example, outcome: "not applied", detail: `not self-contained: uses ${undeclared.join(", ")}, which it does not declare` };
    if (declared.size === 0) return { example, outcome: "not applied", detail: "declares no resource" };

    const dir = join(work, example.replace(/[/.]/g, "-"));
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "main.tf"), text);
    if (!/required_providers/.test(text)) await writeFile(join(dir, "providers.tf"), `terraform {\n  required_providers {\n    streamkap = { source = "streamkap-com/streamkap" }\n  }\n}\n`);
    const variables = [...text.matchAll(/^variable "([a-z0-9_]+)"/gm)].map((m) => m[1]!);
    const values = Object.fromEntries(variables.map((v) => [`TF_VAR_${v}`, variableValue(v)]));
    const emulator = await startEmulator({ port: 0 });
    const stacks: TestStack[] = [];
    try {
      const api = { url: emulator.url, clientId: emulator.clientId, secret: emulator.clientSecret };
      const env = { ...terraformEnv(await writeDevOverride(dir, providerDir), api), ...values };
      const terraform = (...args: string[]) => run("terraform", [...args, "-no-color", ...(args[0] === "show" || args[0] === "state" ? [] : ["-input=false"])], { cwd: dir, env });
      const applied = await terraform("apply", "-auto-approve");
      if (applied.code !== 0) return { example, outcome: "not applied", detail: `terraform apply: ${errorsOf(applied.output)}` };

      const program = join(dir, "program");
      const cdcApi = { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret };
      emulator.resetStats();
      const first = await runCdc(["import", "--from-terraform", dir, "--out", program, "--lang", "yaml"], { cwd: dir, env: { ...env, ...cdcApi } });
      if (first.code !== 0) return { example, outcome: "FAILED", detail: `import: ${first.stderr.trim().slice(0, 300)}` };
      const counts = /(\d+) streamkap_\* instance\(s\), (\d+) adopted/.exec(first.stdout);
      const notCarried = first.stdout.includes("Not carried over") ? first.stdout.slice(first.stdout.indexOf("Not carried over")).split("\n\n")[0]!.split("\n").slice(1).map((l) => l.replace(/^\s+- /, "")) : [];
      const drift = first.stdout.includes("Drift:") ? first.stdout.slice(first.stdout.indexOf("Drift:")).split("\n\n")[0]!.split("\n").slice(1).map((l) => l.replace(/^\s+- /, "")) : [];
      const notes = [...notCarried, ...drift.map((d) => `drift: ${d}`)];
      if (!counts) return { example, outcome: "FAILED", detail: `import printed no counts: ${first.stdout.slice(0, 200)}` };
      if (counts[2] === "0") return { example, outcome: "nothing adopted", detail: notes.join(" | ") || "no streamkap_* instance" };
      const failed = (step: string, why: string) => ({ example, outcome: "FAILED" as const, detail: `${step}: ${why}${notes.length ? ` (import said: ${notes.join(" | ")})` : ""}` });
      if (writes(emulator).length > 0) return failed("import", `wrote ${writes(emulator).join(", ")}`);

      const stack = await TestStack.create(program, { stackName: "example", env: { PATH: `${join(__dirname, "..", "..", "bin")}:${process.env.PATH}` } });
      stacks.push(stack);
      const imported = await runCdc(["import", "--from-terraform", join(dir, "terraform.tfstate"), "--out", program, "--lang", "yaml", "--force", "--secrets-stack", "example"], { cwd: dir, env: { ...env, ...stack.environment() } });
      if (imported.code !== 0) return failed("import --secrets-stack", imported.stderr.trim().slice(0, 300));
      // The secrets: what the provider marks sensitive in the state (its sensitive_attributes), in plain text there.
      const tfstate = JSON.parse(await readFile(join(dir, "terraform.tfstate"), "utf8")) as { resources: { instances: { attributes: Record<string, unknown>; sensitive_attributes?: { value?: string }[][] }[] }[] };
      const secrets = tfstate.resources.flatMap((r) => r.instances.flatMap((i) => (i.sensitive_attributes ?? []).map((path) => i.attributes[path[0]?.value ?? ""]))).filter((v): v is string => typeof v === "string" && v.length >= 6);
      const files = await Promise.all(["Pulumi.yaml", "README.md", "terraform-handover.tf", "Pulumi.example.yaml"].map((f) => readFile(join(program, f), "utf8").catch(() => "")));
      const leaked = secrets.filter((v) => [...files, first.stdout, imported.stdout].some((t) => t.includes(v)));
      if (leaked.length > 0) return failed("secrets", `${leaked.length} value(s) the state marks sensitive are in the program or the output`);

      await stack.useApi(emulator);
      emulator.resetStats();
      const preview = await stack.preview([], { allowFailure: true });
      if (preview.code !== 0) return failed("preview", errorsOf(preview.output) || preview.output.trim().split("\n").slice(-4).join(" ").slice(0, 300));
      const up = await stack.run(["up", "--yes", "--stack", "example"], { allowFailure: true });
      if (up.code !== 0) return failed("up", up.output.trim().split("\n").filter((l) => /error/i.test(l)).slice(0, 3).join(" ").slice(0, 400));
      if (writes(emulator).length > 0) return failed("up", `wrote ${writes(emulator).join(", ")}`);
      const exported = await stack.exportState();
      if (secrets.some((v) => exported.includes(v))) return failed("secrets", "a value the state marks sensitive is in the stack's state in plain text");
      const again = await stack.preview(["--expect-no-changes"], { allowFailure: true });
      if (again.code !== 0) return failed("preview --expect-no-changes", again.output.split("\n").filter((l) => /^\s+[~+-]/.test(l)).slice(0, 6).join(" ").slice(0, 400));

      // The handover: the adopted resources' blocks go (and the outputs, which may use them), the removed blocks come.
      const handover = await readFile(join(program, "terraform-handover.tf"), "utf8");
      const handed = new Set([...handover.matchAll(/from = (\S+)/g)].map((m) => m[1]!));
      await writeFile(join(dir, "main.tf"), withoutBlocks(text, (l) => /^output "/.test(l) || [...handed].some((r) => l.startsWith(`resource "${r.split(".")[0]}" "${r.split(".")[1]}"`))));
      await writeFile(join(dir, "handover.tf"), handover);
      const apply = await terraform("apply", "-auto-approve");
      if (apply.code !== 0) return failed("handover apply", errorsOf(apply.output));
      const plan = await terraform("plan", "-detailed-exitcode");
      if (plan.code !== 0) return failed("plan after the handover", errorsOf(plan.output) || plan.stdout.split("\n").filter((l) => /will be|must be/.test(l)).join(" ").slice(0, 300));
      if (writes(emulator).length > 0) return failed("handover", `wrote ${writes(emulator).join(", ")}`);
      return { example, outcome: "imported", detail: `${counts[2]} of ${counts[1]} instance(s) adopted${notes.length ? `; ${notes.join(" | ")}` : ""}` };
    } finally {
      for (const s of stacks) await s.dispose();
      await emulator.stop();
    }
  }

  it("applies and imports each example, and reports each one's result", async () => {
    const root = join(VENDOR!, "examples", "resources");
    const examples = readdirSync(root)
      .sort()
      .flatMap((type) => readdirSync(join(root, type)).filter((f) => f.endsWith(".tf")).sort().map((file) => [type, file] as const))
      .filter(([type, file]) => !filter || filter.test(`${type}/${file}`));
    expect(examples.length).toBeGreaterThan(0);
    for (const [type, file] of examples) results.push(await one(type, file));
    const by = (o: Result["outcome"]) => results.filter((r) => r.outcome === o);
    console.log(
      [
        `The vendor's resource examples (${results.length}): ${by("imported").length} imported, ${by("not applied").length} not applied, ${by("nothing adopted").length} with nothing adopted, ${by("FAILED").length} failed.`,
        ...results.map((r) => `  ${r.outcome.padEnd(15)} ${r.example}: ${r.detail}`),
      ].join("\n"),
    );
    expect(by("FAILED").map((r) => `${r.example}: ${r.detail}`)).toEqual([]);
  });
});
