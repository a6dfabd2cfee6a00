import { existsSync } from "node:fs";
import { copyFile, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { terraformEnv, writeDevOverride } from "../../scripts/conformance/terraform.js";
import { buildVendor, cannotBuild } from "../../scripts/conformance/vendor.js";
import { runSync } from "../../scripts/lib/process.js";
import { CDC_CLI, run, runCdc } from "../support/process.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { apiWrites } from "../support/web.js";

// Issue 41, point 3: from Terraform to pulumi-cdc with zero writes, against the vendor's real
// provider built from a clone (PULUMI_CDC_VENDOR_REPO, as `npm run generate` takes it; docs/
// migrating-from-terraform.md). The program of fixtures/terraform-migration (15 instances, `count`
// among them) is applied to the emulator by terraform, then imported (TypeScript, then YAML, each
// on a fresh apply): a preview, an `up` with no write, an empty preview, the handover applied by
// terraform with no write, and a plan with nothing to do. Skipped without the clone, Go or terraform.

const REPO_ROOT = resolve(__dirname, "..", "..");
const FIXTURE = join(__dirname, "fixtures", "terraform-migration", "main.tf");
const VENDOR = process.env.PULUMI_CDC_VENDOR_REPO;
const terraformMissing = runSync("terraform", ["version"], { timeoutMs: 60_000 }).code !== 0 ? "terraform is not on PATH" : undefined;
const skip = cannotBuild(VENDOR) ?? terraformMissing;
if (skip) console.log(`import --from-terraform against the vendor's provider: skipped (${skip}; set PULUMI_CDC_VENDOR_REPO to a clone)`);


describe.skipIf(skip !== undefined)("pulumi-cdc import --from-terraform against the vendor's provider", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let providerDir: string;
  let work: string;
  const stacks: TestStack[] = [];

  beforeAll(async () => {
    if (!existsSync(CDC_CLI)) throw new Error(`${CDC_CLI} is missing: run \`npm run build\` first`);
    providerDir = dirname(buildVendor(VENDOR!, "provider", () => {}));
    emulator = await startEmulator({ port: 0 });
    work = await mkdtemp(join(tmpdir(), "pulumi-cdc-import-tf-"));
  });

  afterAll(async () => {
    for (const s of stacks) await s.cleanup();
    await emulator?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  async function terraformDir(name: string, mainTf: string) {
    const dir = join(work, name);
    await run("mkdir", ["-p", dir]);
    await copyFile(mainTf, join(dir, "main.tf"));
    const env = { ...terraformEnv(await writeDevOverride(dir, providerDir), { url: emulator.url, clientId: emulator.clientId, secret: emulator.clientSecret }), TF_VAR_prefix: name };
    const terraform = (...args: string[]) => run("terraform", [...args, "-no-color", ...(args[0] === "show" || args[0] === "state" ? [] : ["-input=false"])], { cwd: dir, env });
    return { dir, terraform, env };
  }

  for (const lang of ["typescript", "yaml"] as const) {
    it(`${lang}: applied by terraform, adopted with no write, handed over with no write`, async () => {
      const { dir, terraform, env: tfEnv } = await terraformDir(`mig-${lang}`, FIXTURE);
      const applied = await terraform("apply", "-auto-approve");
      expect(applied.code, applied.output).toBe(0);
      expect(applied.stdout).toMatch(/Resources: 15 added/);

      const program = join(work, `program-${lang}`);
      emulator.resetStats();
      // With the API's settings: the live objects, read with no write, match what terraform recorded.
      const cdcApi = { CDC_API_URL: emulator.url, CDC_CLIENT_ID: emulator.clientId, CDC_CLIENT_SECRET: emulator.clientSecret };
      const first = await runCdc(["import", "--from-terraform", dir, "--out", program, "--lang", lang], { cwd: work, env: { ...tfEnv, ...cdcApi } });
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain("15 streamkap_* instance(s), 15 adopted");
      expect(first.stdout).toContain("they match the state");
      if (lang === "typescript") await symlink(join(REPO_ROOT, "node_modules"), join(program, "node_modules"), "dir");
      const stack = await TestStack.create(program, { stackName: "migrated", env: { PATH: `${join(REPO_ROOT, "bin")}:${process.env.PATH}` } });
      stacks.push(stack);
      // Again, now that the stack exists: the secrets go into its config.
      const imported = await runCdc(["import", "--from-terraform", join(dir, "terraform.tfstate"), "--out", program, "--lang", lang, "--force", "--secrets-stack", "migrated"], { cwd: work, env: stack.environment() });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain("set in stack migrated's config as secrets");
      const secrets = ["tf-migration-db-password", "tf-migration-private-key"];
      const files = await Promise.all([lang === "typescript" ? "index.ts" : "Pulumi.yaml", "README.md", "terraform-handover.tf", "Pulumi.migrated.yaml"].map((f) => readFile(join(program, f), "utf8")));
      for (const text of [...files, imported.stdout, first.stdout]) for (const s of secrets) expect(text).not.toContain(s);
      expect(apiWrites(emulator)).toEqual({});

      await stack.useApi(emulator);
      const preview = await stack.preview();
      expect(preview.stdout).toMatch(/\+ 16 to create/);
      const up = await stack.up();
      expect(up.stdout).toMatch(/\+ 16 created/);
      expect(apiWrites(emulator)).toEqual({});
      await stack.preview(["--expect-no-changes"]);
      for (const s of secrets) expect(await stack.exportState()).not.toContain(s);

      // The handover: the resource blocks go, the removed blocks come; terraform forgets everything and writes nothing.
      const main = await readFile(join(dir, "main.tf"), "utf8");
      await writeFile(join(dir, "main.tf"), main.slice(0, main.indexOf('resource "')));
      await copyFile(join(program, "terraform-handover.tf"), join(dir, "handover.tf"));
      const handed = await terraform("apply", "-auto-approve");
      expect(handed.code, handed.output).toBe(0);
      expect((await terraform("state", "list")).stdout.trim()).toBe("");
      const plan = await terraform("plan", "-detailed-exitcode");
      expect(plan.code, plan.output).toBe(0);
      expect(apiWrites(emulator)).toEqual({});
      await stack.preview(["--expect-no-changes"]);
    });
  }
});
