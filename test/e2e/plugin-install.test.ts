import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { runOk } from "../support/process.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";

const repo = join(__dirname, "..", "..");

// The offline install a user does: `npm run package-plugin`, then `pulumi plugin install
// resource cdc <version> --file <tarball>` into their plugin cache, and a YAML program that names
// no plugin path at all.
describe("the provider plugin as a tarball", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let stack: TestStack;
  let dir: string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    dir = await mkdtemp(join(tmpdir(), "pulumi-cdc-plugin-install-"));
    await cp(join(repo, "examples", "yaml-quickstart"), dir, { recursive: true });
    stack = await TestStack.create(dir, {
      env: {
        CDC_API_URL: emulator.url,
        CDC_CLIENT_ID: emulator.clientId,
        CDC_CLIENT_SECRET: emulator.clientSecret,
        // Only what is in the private plugin cache: not bin/ of this checkout on PATH, if it were.
        PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
      },
    });
  });
  afterAll(async () => {
    await stack?.dispose();
    await emulator?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("packs, installs with pulumi plugin install --file, and runs a YAML program from the plugin cache", async () => {
    const { stdout } = await runOk("bash", [join(repo, "scripts", "package-plugin.sh")], { cwd: repo });
    const tarball = join(repo, stdout.trim().split("\n").pop()!);
    const version = (JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as { version: string }).version;
    expect(tarball).toMatch(new RegExp(`pulumi-resource-cdc-v${version.replace(/\./g, "\\.")}-linux-\\w+\\.tar\\.gz$`));

    await stack.run(["plugin", "install", "resource", "cdc", version, "--file", tarball]);
    expect((await stack.run(["plugin", "ls"])).stdout).toMatch(new RegExp(`cdc\\s+resource\\s+${version.replace(/\./g, "\\.")}`));

    await stack.setConfigs({}, { dbPassword: "pg-from-config", snowflakePrivateKey: "MIIE-from-config" });
    const up = await stack.up();
    expect(up.stdout).toMatch(/\+ 6 created/);
    expect(await stack.outputs()).toMatchObject({ sourceId: expect.any(String), destinationStatus: "Active" });
    await stack.preview(["--expect-no-changes"]);
    const destroy = await stack.destroy();
    expect(destroy.stdout).toMatch(/- 6 deleted/);
  });
});
