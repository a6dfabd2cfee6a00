#!/usr/bin/env node
// The provider plugin as one file: dist/plugin/pulumi-resource-cdc.js, plugin/main.ts with
// everything it runs (the core in provider/, the catalogue, undici, zod, diff, grpc-js,
// google-protobuf and the protocol definitions of @pulumi/pulumi), so a start reads one file
// instead of resolving and compiling some hundreds of modules. It runs on Node.js alone, with
// nothing beside it but the package's package.json and plugin/schema.json, which it reads from
// disk (two levels up from the bundle, as from dist/plugin/main.js).
//
//   node scripts/bundle-plugin.mjs                 # dist/plugin/pulumi-resource-cdc.js (npm run build runs this after tsc)
//   node scripts/bundle-plugin.mjs --stage <dir>   # the whole installed plugin in <dir>, for a tarball
//
// --stage writes everything `pulumi plugin install resource cdc <version> --file <tarball>` needs,
// nothing else (no node_modules: the bundle holds its dependencies):
//   <dir>/pulumi-resource-cdc                     the launcher (sh: node with PLUGIN_NODE_OPTIONS on the bundle)
//   <dir>/dist/plugin/pulumi-resource-cdc.js      the bundle
//   <dir>/plugin/schema.json                      the schema GetSchema answers with
//   <dir>/package.json                            name and version (GetPluginInfo, the user agent)
// bin/pulumi-resource-cdc is the same launcher for this checkout.
//
// No source map (stack traces name the bundle's lines, which is enough for a plugin whose errors
// reach the user as messages), and not minified: names stay readable.
import { build } from "esbuild";
import { chmod, copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { stage: { type: "string" } } });
/** Where the bundle goes, under the repository or under a stage directory. */
const BUNDLE = join("dist", "plugin", "pulumi-resource-cdc.js");
/**
 * V8's heap options for the plugin's node: a 1 MiB young generation and an old one that grows by
 * 30 % instead of doubling. The same as bin/pulumi-resource-cdc's (docs/benchmarks.md: what they gave).
 */
const PLUGIN_NODE_OPTIONS = "--max-semi-space-size=1 --heap-growing-percent=30";
const stage = values.stage === undefined ? undefined : resolve(values.stage);
const outfile = join(stage ?? root, BUNDLE);

// plugin/proto.ts loads gRPC and the protocol modules through the Pulumi SDK's directory at run
// time (fromSdk("...")): here each of those becomes a plain require resolved from that same
// directory, so esbuild inlines the very files tsc's build would load.
const sdkRoot = dirname(createRequire(join(root, "package.json")).resolve("@pulumi/pulumi/package.json"));
const protoFromSdk = {
  name: "proto-from-sdk",
  setup(b) {
    b.onLoad({ filter: /[\\/]plugin[\\/]proto\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const calls = source.match(/fromSdk\("[^"]+"\)/g) ?? [];
      if (calls.length === 0) throw new Error("plugin/proto.ts: no fromSdk(\"...\") calls found to inline");
      return { contents: source.replace(/fromSdk\(("[^"]+")\)/g, "require($1)"), loader: "ts", resolveDir: sdkRoot };
    });
  },
};

const result = await build({
  absWorkingDir: root,
  entryPoints: [join(root, "plugin", "main.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node22",
  sourcemap: false,
  minify: false,
  legalComments: "inline",
  logLevel: "warning",
  metafile: true,
  plugins: [protoFromSdk],
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
process.stderr.write(`[bundle-plugin] wrote ${outfile} (${(bytes / 1024 / 1024).toFixed(1)} MiB, ${Object.keys(result.metafile.inputs).length} modules)\n`);

if (stage) {
  await mkdir(join(stage, "plugin"), { recursive: true });
  await copyFile(join(root, "plugin", "schema.json"), join(stage, "plugin", "schema.json"));
  const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
  const manifest = { name: "pulumi-resource-cdc", version: pkg.version, private: true, license: pkg.license, description: "The pulumi-cdc provider plugin (one bundled file: no dependencies to install)", engines: pkg.engines };
  await writeFile(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const launcher = join(stage, "pulumi-resource-cdc");
  await writeFile(
    launcher,
    `#!/bin/sh\n# pulumi-cdc's provider plugin: Node.js >= ${pkg.engines.node.replace(/^>=\s*/, "")} on PATH runs it.\nhere="$(dirname "$(readlink -f "$0")")"\nexec node ${PLUGIN_NODE_OPTIONS} "$here/${BUNDLE}" "$@"\n`,
  );
  await chmod(launcher, 0o755);
  process.stderr.write(`[bundle-plugin] staged the plugin in ${stage}\n`);
}
