import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { chainReadSchema, SMT_CHAIN_PATH } from "../../provider/smt/api.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { plain, yamlProgram, type YamlProgram } from "../support/yaml.js";
import { ConsoleClient, webClient } from "../support/web.js";

const SALT = "MASK-SALT-SENTINEL-7c41";

/**
 * A destination's SMT chain under the real engine, as users run it, on both hosts against one
 * emulator: TypeScript (the dynamic classes) and YAML (the provider plugin).
 */
describe("DestinationSmtChain under the real Pulumi engine", { timeout: ENGINE_TIMEOUT_MS }, () => {
  let emulator: RunningEmulator;
  let web: ConsoleClient;
  let yaml: YamlProgram;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    web = webClient(emulator);
    yaml = await yamlProgram(join(__dirname, "fixtures", "smt-chain-yaml"));
  });
  afterAll(async () => {
    await yaml?.dispose();
    await web?.close();
    await emulator?.stop();
  });

  const chain = (id: string) => web.get(SMT_CHAIN_PATH, { params: { id }, schema: chainReadSchema });

  for (const host of ["typescript", "yaml"] as const) {
    it(`${host}: preview, up, an empty preview, a console edit named by a plain preview and drift, up restores it, the salt nowhere, destroy`, async () => {
      const dir = host === "typescript" ? join(__dirname, "fixtures", "smt-chain-ts") : yaml.dir;
      const stack = await TestStack.create(dir, { stackName: `smt-${host === "typescript" ? "ts" : "yaml"}` });
      try {
        await stack.useApi(
          emulator,
          {},
          {
            [host === "typescript" ? "cdc-e2e-smt-chain-ts:maskSalt" : "maskSalt"]: SALT,
            [host === "typescript" ? "cdc-e2e-smt-chain-ts:snowflakePrivateKey" : "snowflakePrivateKey"]: "MIIEvQ-smt-e2e-key",
          },
        );

        const first = await stack.preview();
        expect(plain(first.output)).toMatch(/\+ 3 to create/);

        const up = await stack.up();
        expect(plain(up.output)).toMatch(/\+ 3 created/);
        const outs = await stack.outputs();
        const destination = String(outs.destinationId);
        const live = await chain(destination);
        expect(live.desired.transforms.map((t) => [t.name, "type" in t ? t.type : "", "configured_secret_paths" in t ? t.configured_secret_paths : []])).toEqual([
          ["Mask email", "mask_field", ["/mask_salt"]],
          ["Route orders", "regex_router", []],
        ]);
        expect(outs.chainRevision).toBe(live.desired.chain_revision);

        await stack.preview(["--expect-no-changes"]);

        // In the console: the mask function changed, saved with the revision the console read.
        const edited = live.desired.transforms.map((t) => {
          const typed = t as { id: string; type: string; name: string; enabled: boolean; config: Record<string, unknown> };
          return { id: typed.id, type: typed.type, name: typed.name, enabled: typed.enabled, config: typed.type === "mask_field" ? { ...typed.config, mask_function: "MD5" } : typed.config };
        });
        await web.put(SMT_CHAIN_PATH, { params: { id: destination }, body: { expected_revision: live.desired.chain_revision, transforms: edited } });

        const drifted = await stack.preview([], { allowFailure: false });
        expect(plain(drifted.output)).toContain("transforms[0].maskFunction");
        expect(plain(drifted.output)).toMatch(/~ 1 to update/);
        const report = await stack.drift([], { stackConfigOnly: true });
        expect(report.code).toBe(2);
        // The dynamic host keeps the whole `transforms` output encrypted (its input held a secret),
        // so the command, which reads no secret, can say only that the chain moved.
        expect(report.stdout).toContain(
          host === "yaml" ? 'transforms[0].maskFunction of "Mask email" was changed from "SHA256_TRUNCATE" to "MD5"' : "the chain was saved outside Pulumi: it is at revision",
        );

        const restored = await stack.run(["up", "--yes", "--debug", "--stack", stack.stackName]);
        expect(plain(restored.output)).toMatch(/~ 1 updated/);
        expect(restored.output).not.toContain(SALT);
        const back = await chain(destination);
        expect(back.desired.transforms[0]).toMatchObject({ config: { mask_function: "SHA256_TRUNCATE" }, configured_secret_paths: ["/mask_salt"] });
        await stack.preview(["--expect-no-changes"]);
        expect((await stack.drift([], { stackConfigOnly: true })).code).toBe(0);

        expect(await stack.exportState()).not.toContain(SALT);
        expect(JSON.stringify(await stack.outputs())).not.toContain(SALT);

        await stack.destroy();
        await expect(chain(destination)).rejects.toThrow(/404/);
      } finally {
        await stack.cleanup();
      }
    });
  }
});
