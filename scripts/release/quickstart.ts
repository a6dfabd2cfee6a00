import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { must } from "../lib/process.js";

interface Emulator {
  url: string;
  clientId: string;
  clientSecret: string;
  stop(): void;
}

/** The emulator (dist/emulator/cli.js) on 127.0.0.1 and a free port, until stop(). */
function startEmulator(root: string): Promise<Emulator> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "dist", "emulator", "cli.js"), "--host", "127.0.0.1", "--port", "0"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the emulator did not start in 30 s:\n${out}`));
    }, 30_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const url = /listening on (\S+)/.exec(out)?.[1];
      const clientId = /client id: (\S+)/.exec(out)?.[1];
      const clientSecret = /client secret: (\S+)/.exec(out)?.[1];
      if (url && clientId && clientSecret) {
        clearTimeout(timer);
        resolve({ url, clientId, clientSecret, stop: () => child.kill("SIGTERM") });
      }
    });
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${code}) before listening:\n${out}`));
    });
  });
}

/**
 * examples/yaml-quickstart, copied out of the checkout, run on the plugin installed in
 * `pulumiHome`'s plugin cache and nothing else (no plugin on PATH, no download), against the
 * emulator: preview, up, destroy. Returns one line per step.
 */
export async function runYamlQuickstart(root: string, pulumiHome: string): Promise<string[]> {
  const work = mkdtempSync(join(tmpdir(), "pulumi-cdc-release-quickstart-"));
  const emulator = await startEmulator(root);
  try {
    const program = join(work, "program");
    cpSync(join(root, "examples", "yaml-quickstart"), program, { recursive: true });
    mkdirSync(join(work, "state"));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PULUMI_HOME: pulumiHome,
      PULUMI_BACKEND_URL: `file://${join(work, "state")}`,
      PULUMI_CONFIG_PASSPHRASE: "release-dry-run",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      // The installed plugin only: not bin/ of the checkout on PATH, and no download.
      PULUMI_IGNORE_AMBIENT_PLUGINS: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      CDC_API_URL: emulator.url,
      CDC_CLIENT_ID: emulator.clientId,
      CDC_CLIENT_SECRET: emulator.clientSecret,
    };
    delete env.PULUMI_CDC_PLUGIN_PATH;
    const pulumi = (args: string[], timeoutMs = 300_000) => must("pulumi", [...args, "--non-interactive"], { cwd: program, env, timeoutMs });
    await pulumi(["stack", "init", "release"]);
    await pulumi(["config", "set", "--secret", "dbPassword", "pg-from-config"]);
    await pulumi(["config", "set", "--secret", "snowflakePrivateKey", "MIIE-from-config"]);
    const lines: string[] = [];
    const preview = await pulumi(["preview"]);
    if (!/\+ 6 to create/.test(preview.stdout)) throw new Error(`the preview did not plan 6 creates:\n${preview.stdout}`);
    lines.push("preview: + 6 to create");
    const up = await pulumi(["up", "--yes"]);
    if (!/\+ 6 created/.test(up.stdout)) throw new Error(`up did not create 6 resources:\n${up.stdout}`);
    const outputs = JSON.parse((await pulumi(["stack", "output", "--json"])).stdout) as { destinationStatus?: string };
    if (outputs.destinationStatus !== "Active") throw new Error(`the destination is ${outputs.destinationStatus}, not Active`);
    lines.push("up: + 6 created, destination Active");
    // A destroy plans from the state alone: its preview would check nothing.
    const destroy = await pulumi(["destroy", "--yes", "--skip-preview"]);
    if (!/- 6 deleted/.test(destroy.stdout)) throw new Error(`destroy did not delete 6 resources:\n${destroy.stdout}`);
    lines.push("destroy: - 6 deleted");
    return lines;
  } finally {
    emulator.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
