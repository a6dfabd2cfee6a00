import { existsSync } from "node:fs";
import { mkdir, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../support/process.js";
import { ENGINE_TIMEOUT_MS } from "../support/pulumi.js";

// Issue 21: the "adopt an existing tenant" flow as a runnable example. examples/adopt-tenant/adopt.sh
// starts its own emulator, seeds a tenant as the web console would, imports it, adopts it with
// `pulumi up`, checks `pulumi preview --expect-no-changes`, destroys it and cleans up after itself.

const REPO_ROOT = resolve(__dirname, "..", "..");
const SCRIPT = join(REPO_ROOT, "examples", "adopt-tenant", "adopt.sh");

describe("examples/adopt-tenant/adopt.sh", { timeout: ENGINE_TIMEOUT_MS }, () => {
  it("seeds, imports, adopts, previews with no changes, destroys and cleans up", async () => {
    expect(existsSync(join(REPO_ROOT, "dist", "cli", "index.js")), "run `npm run build` first").toBe(true);
    // A temp dir of its own, where the script makes its work dir: checked empty of it afterwards.
    const scratch = join(tmpdir(), `adopt-example-${process.pid}`);
    await mkdir(scratch, { recursive: true });
    // The script runs with the toolchain's PATH (Node.js >= 22.19 and the Pulumi CLI) and this Node.js.
    const env: NodeJS.ProcessEnv = { ...process.env, NODE: process.execPath, TMPDIR: scratch };
    for (const key of Object.keys(env)) if (key.startsWith("PULUMI_") || key.startsWith("CDC_")) delete env[key];
    const result = await run("bash", [SCRIPT], { cwd: tmpdir(), env, timeout: ENGINE_TIMEOUT_MS - 60_000 });
    try {
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/seeded \(created_from "web"\): tag acme-pii/);
      expect(result.output).toContain("Wrote a TypeScript program for 1 tag, 1 source, 1 destination and 1 pipeline");
      expect(result.output).toContain('adoptId: "');
      expect(result.output).toContain("pulumi config set --secret acmeOrdersSourceDatabasePassword ****");
      expect(result.output).toMatch(/\+ 5 created/);
      expect(result.output).toMatch(/==> 6\. pulumi preview --expect-no-changes[\s\S]*5 unchanged[\s\S]*The preview had no changes/);
      expect(result.output).toMatch(/- 5 deleted/);
      expect(result.output).toContain("Done: the tenant was adopted, checked clean and destroyed.");
      // No secret value typed into the console reaches the generated program.
      expect(result.output).not.toContain("typed-into-the-console");
      expect(result.output).not.toContain("pasted-into-the-console");
      // Its temp dir (program, PULUMI_HOME, backend) is gone. (Node.js may leave its compile cache there.)
      expect((await readdir(scratch)).filter((name) => name.startsWith("pulumi-cdc-adopt."))).toEqual([]);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
