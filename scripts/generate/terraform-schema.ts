import { existsSync, readdirSync, readFileSync } from "node:fs";
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
 *
 * The vendor's newer resource types, which the build of that clone lacks (the mirror here stops at
 * beta.24): `-- <clone> --later <checkout> --later-commit <sha>` also reads the schema snapshots a
 * newer checkout holds (internal/provider/testdata/schemas/<type>_v1.json, the vendor's own record
 * of each resource's attributes) for every type the build does not have, each recorded with the
 * snapshot it came from. A checkout may hold only those files.
 *
 * The same newer checkout's migration guide (docs/guides/migration.md) gives the v2 attributes a
 * v3 state no longer has and no alias stands for: its "Required configuration changes" name, per
 * resource, the renamed ones (a `v2 name | v3.x name` table, or "rename `a` to `b`") and the
 * removed ones ("remove `a` and `b`", "`a` was removed"). They are recorded as `v2`, so that a v2
 * state imports.
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

const SNAPSHOTS = join("internal", "provider", "testdata", "schemas");

/** A snapshot's Go type (`basetypes.StringType`, `types.SetType[basetypes.StringType]`) as terraform's schema spells it; the Go text when it is neither. */
function snapshotType(go: string | undefined): unknown {
  const scalar = (t: string) => ({ "basetypes.StringType": "string", "basetypes.BoolType": "bool", "basetypes.Int64Type": "number", "basetypes.Float64Type": "number", "basetypes.NumberType": "number" })[t];
  if (go === undefined) return undefined;
  const collection = /^types\.(Set|List|Map)Type\[(basetypes\.\w+)\]$/.exec(go);
  if (collection && scalar(collection[2]!)) return [collection[1]!.toLowerCase(), scalar(collection[2]!)];
  return scalar(go) ?? go;
}

/** The resource types of a newer checkout's schema snapshots that `known` lacks (data sources and SMT prototypes aside). */
function laterTypes(checkout: string, known: ReadonlySet<string>): [string, Record<string, unknown>][] {
  const dir = join(checkout, SNAPSHOTS);
  const out: [string, Record<string, unknown>][] = [];
  for (const file of readdirSync(dir).filter((f) => /^[a-z0-9_]+_v\d+\.json$/.test(f) && !/^(datasource|smtproto)_/.test(f)).sort()) {
    const type = `streamkap_${file.replace(/_v\d+\.json$/, "")}`;
    if (known.has(type)) continue;
    const snapshot = JSON.parse(readFileSync(join(dir, file), "utf8")) as { version?: string; attributes: Record<string, RawAttribute & { type?: string }> };
    const attributes = Object.fromEntries(
      Object.entries(snapshot.attributes)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([n, a]) => [n, attribute({ ...a, type: snapshotType(a.type) })]),
    );
    out.push([type, { attributes, snapshot: `${SNAPSHOTS}/${file}${snapshot.version ? ` (${snapshot.version})` : ""}` }]);
  }
  return out;
}

const GUIDE = join("docs", "guides", "migration.md");

/** A guide section's resource type: `### PostgreSQL destination` → streamkap_destination_postgresql, or the one type its text names. */
function sectionType(heading: string, body: string, types: ReadonlySet<string>): string | undefined {
  const m = /^(.+) (source|destination)$/.exec(heading.trim());
  const named = m ? `streamkap_${m[2]}_${m[1]!.toLowerCase().replace(/[^a-z0-9]/g, "")}` : undefined;
  if (named && types.has(named)) return named;
  const mentioned = [...new Set([...body.matchAll(/`(streamkap_[a-z0-9_]+?)(?:\.[a-z0-9_]+)?`/g)].map((x) => x[1]!))].filter((t) => types.has(t));
  return mentioned.length === 1 ? mentioned[0] : undefined;
}

/** The guide's required changes: per type, v2 attributes renamed (to their v3 name) and removed. */
function v2Changes(checkout: string, types: ReadonlySet<string>) {
  const text = readFileSync(join(checkout, GUIDE), "utf8");
  const start = text.indexOf("\n## Required configuration changes");
  if (start < 0) throw new Error(`${GUIDE}: no "## Required configuration changes" section: the guide changed; read it and update scripts/generate/terraform-schema.ts`);
  const end = text.indexOf("\n## ", start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const renames: Record<string, Record<string, string>> = {};
  const removed: Record<string, string[]> = {};
  for (const part of section.split(/\n### /).slice(1)) {
    const heading = part.slice(0, part.indexOf("\n"));
    const body = part.slice(heading.length);
    const found: Record<string, string> = {};
    for (const row of body.matchAll(/^\|\s*`([a-z0-9_]+)`\s*\|\s*`([a-z0-9_]+)`\s*\|\s*$/gm)) found[row[1]!] = row[2]!;
    for (const r of body.matchAll(/[Rr]ename\s+`([a-z0-9_]+)`\s+to\s+`([a-z0-9_]+)`/g)) found[r[1]!] = r[2]!;
    const gone = [...body.matchAll(/Remove ((?:`[a-z0-9_]+`(?:, | and )?)+)/g)].flatMap((r) => [...r[1]!.matchAll(/`([a-z0-9_]+)`/g)].map((x) => x[1]!));
    gone.push(...[...body.matchAll(/`([a-z0-9_]+)` was removed/g)].map((r) => r[1]!));
    if (Object.keys(found).length === 0 && gone.length === 0) continue;
    const type = sectionType(heading, body, types);
    if (!type) throw new Error(`${GUIDE}: the section "${heading}" renames or removes attributes of no resource type the schema has: read it and update scripts/generate/terraform-schema.ts`);
    if (Object.keys(found).length > 0) renames[type] = { ...renames[type], ...found };
    if (gone.length > 0) removed[type] = [...new Set([...(removed[type] ?? []), ...gone])].sort();
  }
  return { from: GUIDE, renames, removed };
}

async function main() {
  const [root, clone, ...rest] = process.argv.slice(2) as [string, string | undefined, ...string[]];
  const flag = (name: string) => (rest.indexOf(name) >= 0 ? rest[rest.indexOf(name) + 1] : undefined);
  const later = flag("--later");
  const laterCommit = flag("--later-commit");
  if (later !== undefined && !laterCommit) throw new Error("--later <checkout> needs --later-commit <sha>: the vendor's commit its snapshots are of");
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
    const newer = later ? laterTypes(later, new Set(Object.keys(resources))) : [];
    for (const [type, schema] of newer) (resources as Record<string, unknown>)[type] = schema;
    const v2 = later && existsSync(join(later, GUIDE)) ? v2Changes(later, new Set(Object.keys(resources))) : undefined;
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
        ...(newer.length > 0
          ? { later: { what: "Types the build above lacks, read from a newer checkout's schema snapshots (each type's `snapshot`): their attribute names and flags; blocks are not in those snapshots.", commit: laterCommit, types: newer.map(([t]) => t) } }
          : {}),
      },
      resources,
      ...(v2 ? { v2 } : {}),
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
