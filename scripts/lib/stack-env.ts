import { mkdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The environment of a script's own Pulumi stacks: a private file backend and PULUMI_HOME under
 * `dir`, a passphrase, no update check, no plugin download, no prompt, and none of the caller's
 * CDC_* settings (the stack's config says which API it talks to).
 */
export function privateStackEnv(dir: string, passphrase: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  mkdirSync(join(dir, "backend"), { recursive: true });
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CDC_"))),
    PULUMI_HOME: join(dir, "home"),
    PULUMI_BACKEND_URL: `file://${join(dir, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: passphrase,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    ...extra,
  };
}
