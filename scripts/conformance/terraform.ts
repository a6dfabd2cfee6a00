import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * How terraform runs the vendor's provider built from a clone against an API (the emulator):
 * a CLI configuration whose dev override is that build and nothing else (no registry, no plugin
 * cache), and the provider's settings in its environment. `npm run conformance`'s cases, the
 * committed provider schema (scripts/generate/terraform-schema.ts) and the Terraform migration
 * tests all run terraform this way.
 */

/** Writes `<dir>/cli.tfrc` overriding streamkap-com/streamkap with the provider in `providerDir`; returns its path. */
export async function writeDevOverride(dir: string, providerDir: string): Promise<string> {
  const path = join(dir, "cli.tfrc");
  await writeFile(path, `provider_installation {\n  dev_overrides {\n    "streamkap-com/streamkap" = ${JSON.stringify(providerDir)}\n  }\n  direct {}\n}\n`);
  return path;
}

/** terraform's environment: the CLI configuration, no CDC_* or TF_* of the caller's, the provider pointed at `api`. */
export function terraformEnv(cliConfig: string, api?: { url: string; clientId: string; secret: string }): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("CDC_") && !k.startsWith("TF_"))),
    TF_CLI_CONFIG_FILE: cliConfig,
    TF_IN_AUTOMATION: "1",
    CHECKPOINT_DISABLE: "1",
    ...(api ? { STREAMKAP_HOST: api.url, STREAMKAP_CLIENT_ID: api.clientId, STREAMKAP_SECRET: api.secret } : {}),
  };
}
