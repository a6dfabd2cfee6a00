import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildVendor, cannotBuild } from "../conformance/vendor.js";
import { terraformEnv, writeDevOverride } from "../conformance/terraform.js";
import { run, runSync } from "../lib/process.js";

/**
 * `npm run terraform-schema -- <clone of the vendor's provider>`: builds the provider from the
 * clone (as `npm run conformance` does), asks terraform for its schema (`terraform providers
 * schema -json`) and writes the resources' part, reduced to what the Terraform import's mapping
 * is tested against, to catalogue/terraform-schema.json: each `streamkap_*` resource type with
 * its attributes (type, required/optional/computed, sensitive, deprecated and the deprecation's
 * text, which names the attribute that replaces it). Never edited by hand.
 */

interface RawAttribute {
  type?: unknown;
  nested_type?: { attributes: Record<string, RawAttribute>; nesting_mode: string };
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  deprecated?: boolean;
  description?: string;
}
interface RawBlock {
  attributes?: Record<string, RawAttribute>;
  block_types?: Record<string, { nesting_mode: string; block: RawBlock }>;
}

function attribute(a: RawAttribute): Record<string, unknown> {
  return {
    type: a.nested_type ? { nested: a.nested_type.nesting_mode, attributes: Object.keys(a.nested_type.attributes).sort() } : a.type,
    ...(a.required ? { required: true } : {}),
    ...(a.optional ? { optional: true } : {}),
    ...(a.computed ? { computed: true } : {}),
    ...(a.sensitive ? { sensitive: true } : {}),
    ...(a.deprecated ? { deprecated: a.description ?? true } : {}),
  };
}

async function main() {
  const [root, clone] = process.argv.slice(2) as [string, string | undefined];
  const why = cannotBuild(clone);
  if (why) throw new Error(`${why}: usage: npm run terraform-schema -- <clone of github.com/streamkap-com/terraform-provider-streamkap>`);
  const say = (line: string) => process.stderr.write(`[terraform-schema] ${line}\n`);
  const provider = buildVendor(clone!, "provider", say);
  const dir = await mkdtemp(join(tmpdir(), "pulumi-cdc-terraform-schema-"));
  try {
    const cliConfig = await writeDevOverride(dir, dirname(provider));
    await writeFile(join(dir, "main.tf"), `terraform {\n  required_providers {\n    streamkap = { source = "streamkap-com/streamkap" }\n  }\n}\n`);
    const shown = await run("terraform", ["providers", "schema", "-json"], { cwd: dir, env: terraformEnv(cliConfig), timeoutMs: 5 * 60_000, group: false });
    if (shown.code !== 0) throw new Error(`terraform providers schema -json exited ${shown.code}:\n${shown.output}`);
    const schemas = (JSON.parse(shown.stdout) as { provider_schemas: Record<string, { resource_schemas: Record<string, { block: RawBlock }> }> }).provider_schemas;
    const provider_ = Object.entries(schemas).find(([name]) => name.endsWith("/streamkap-com/streamkap"));
    if (!provider_) throw new Error("the schema has no streamkap-com/streamkap provider");
    const resources = Object.fromEntries(
      Object.entries(provider_[1].resource_schemas)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([type, { block }]) => [
          type,
          {
            attributes: Object.fromEntries(Object.entries(block.attributes ?? {}).sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, a]) => [n, attribute(a)])),
            ...(block.block_types && Object.keys(block.block_types).length > 0 ? { blocks: Object.keys(block.block_types).sort() } : {}),
          },
        ]),
    );
    const commit = runSync("git", ["-C", clone!, "rev-parse", "--short=7", "HEAD"], { timeoutMs: 60_000 }).stdout.trim();
    const release = runSync("git", ["-C", clone!, "log", "-1", "--format=%s"], { timeoutMs: 60_000 }).stdout.trim();
    const terraform = (JSON.parse(runSync("terraform", ["version", "-json"], { timeoutMs: 60_000 }).stdout) as { terraform_version: string }).terraform_version;
    const out = {
      about: {
        what: "The resource types of the vendor's Terraform provider and their attributes, as `terraform providers schema -json` gives them for a build of the commit below: what `pulumi-cdc import --from-terraform`'s mapping is tested against (test/unit/cli/terraform-mapping.test.ts). Written by scripts/generate/terraform-schema.ts (`npm run terraform-schema -- <clone>`); never edited by hand.",
        source: "github.com/streamkap-com/terraform-provider-streamkap",
        commit,
        release,
        terraform,
      },
      resources,
    };
    const path = join(root, "catalogue", "terraform-schema.json");
    await writeFile(path, `${JSON.stringify(out, null, 2)}\n`);
    say(`wrote ${path}: ${Object.keys(resources).length} resource types`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`[terraform-schema] error: ${(error as Error).message}\n`);
  process.exit(2);
});
