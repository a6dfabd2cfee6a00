#!/usr/bin/env node
// The provider plugin as one file: dist/plugin/pulumi-resource-cdc.js, plugin/main.ts with
// everything it runs (the core in provider/, the catalogue, undici, zod, diff, grpc-js,
// google-protobuf and the protocol definitions of @pulumi/pulumi), so a start reads one file
// instead of resolving and compiling some hundreds of modules. It runs on Node.js alone, with
// nothing beside it but the package's package.json and generated/schema.json, which it reads from
// disk (two levels up from the bundle, as from dist/plugin/main.js).
//
//   node scripts/bundle-plugin.mjs                 # dist/plugin/pulumi-resource-cdc.js (npm run build runs this after tsc)
//   node scripts/bundle-plugin.mjs --stage <dir> [--launcher posix|windows|none]
//                                                  # the whole installed plugin in <dir>, for a tarball
//   node scripts/bundle-plugin.mjs ... --metafile <file>
//                                                  # and esbuild's record of the modules it bundled (the plugin's SBOM reads it)
//
// --stage writes everything `pulumi plugin install resource cdc <version> --file <tarball>` needs,
// nothing else (no node_modules: the bundle holds its dependencies). It is the one list of what the
// plugin holds: the release's tarballs (scripts/release/plugin-contents.ts) stage through it too.
//   <dir>/pulumi-resource-cdc                     the launcher: --launcher posix (the default), sh
//   <dir>/pulumi-resource-cdc.cmd                 or --launcher windows; --launcher none writes neither
//   <dir>/dist/plugin/pulumi-resource-cdc.js      the bundle
//   <dir>/generated/schema.json                   the schema GetSchema answers with
//   <dir>/package.json                            name, version, license, engines (GetPluginInfo, the user agent)
//   <dir>/LICENSE
// Each launcher finds node on PATH (one line naming the Node.js needed when there is none) and runs
// the bundle under the V8 heap options of bin/plugin-node-options, which bin/pulumi-resource-cdc,
// this checkout's launcher, reads too; the bundle's first import (provider/node-version.ts)
// refuses a Node.js older than engines.node with the same kind of line.
//
// No source map (stack traces name the bundle's lines, which is enough for a plugin whose errors
// reach the user as messages), and not minified: names stay readable.
import { build } from "esbuild";
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({ options: { stage: { type: "string" }, launcher: { type: "string", default: "posix" }, metafile: { type: "string" } } });
if (!["posix", "windows", "none"].includes(values.launcher)) throw new Error(`--launcher ${values.launcher}: posix, windows or none`);
/** Where the bundle goes, under the repository or under a stage directory (and as the launchers name it). */
const BUNDLE = "dist/plugin/pulumi-resource-cdc.js";

/** V8's heap options for the plugin's node, from bin/plugin-node-options (its lines but comments, as one line). */
async function pluginNodeOptions() {
  const text = await readFile(join(root, "bin", "plugin-node-options"), "utf8");
  const options = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#")).join(" ");
  // Written into sh and cmd launchers unquoted: options only, nothing either would interpret.
  if (!/^--[a-z0-9-]+(=[A-Za-z0-9._-]+)?( --[a-z0-9-]+(=[A-Za-z0-9._-]+)?)*$/.test(options)) throw new Error(`bin/plugin-node-options: ${JSON.stringify(options)} is not a line of --option[=value]`);
  return options;
}

const stage = values.stage === undefined ? undefined : resolve(values.stage);
const outfile = join(stage ?? root, ...BUNDLE.split("/"));

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
if (values.metafile) await writeFile(resolve(values.metafile), JSON.stringify(result.metafile));
process.stderr.write(`[bundle-plugin] wrote ${outfile} (${(bytes / 1024 / 1024).toFixed(1)} MiB, ${Object.keys(result.metafile.inputs).length} modules)\n`);

if (stage) {
  const options = await pluginNodeOptions();
  await mkdir(join(stage, "generated"), { recursive: true });
  await copyFile(join(root, "generated", "schema.json"), join(stage, "generated", "schema.json"));
  await copyFile(join(root, "LICENSE"), join(stage, "LICENSE"));
  const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
  const manifest = { name: "pulumi-resource-cdc", version: pkg.version, private: true, license: pkg.license, description: "The pulumi-cdc provider plugin (one bundled file: no dependencies to install)", engines: pkg.engines };
  await writeFile(join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const minNode = /^>=\s*(\d+\.\d+\.\d+)$/.exec(pkg.engines?.node?.trim() ?? "")?.[1];
  if (!minNode) throw new Error(`package.json's engines.node is ${JSON.stringify(pkg.engines?.node)}, not ">=X.Y.Z"`);
  // One launcher: a stage directory reused for another OS must not keep the other's.
  await rm(join(stage, "pulumi-resource-cdc"), { force: true });
  await rm(join(stage, "pulumi-resource-cdc.cmd"), { force: true });
  if (values.launcher !== "none") {
    const windows = values.launcher === "windows";
    const launcher = join(stage, windows ? "pulumi-resource-cdc.cmd" : "pulumi-resource-cdc");
    await writeFile(launcher, windows ? windowsLauncher(minNode, options) : posixLauncher(minNode, options));
    await chmod(launcher, 0o755);
  }
  process.stderr.write(`[bundle-plugin] staged the plugin in ${stage} (launcher: ${values.launcher})\n`);
}

/** The POSIX launcher (Linux, macOS): sh, beside the bundle's dist/. */
function posixLauncher(minNode, options) {
  return `#!/bin/sh
# pulumi-cdc's provider plugin: needs Node.js >= ${minNode} on PATH.
case "$0" in */*) here="\${0%/*}" ;; *) here=. ;; esac
if ! command -v node >/dev/null 2>&1; then
  echo "pulumi-resource-cdc needs Node.js >= ${minNode} on PATH, and there is no node: install Node.js ${minNode} or newer" >&2
  exit 1
fi
# Fewer malloc arenas (glibc; others ignore it): about 10 MiB less at 1,000 resources.
export MALLOC_ARENA_MAX="\${MALLOC_ARENA_MAX:-2}"
exec node ${options} "$here/${BUNDLE}" "$@"
`;
}

/** The Windows launcher: Pulumi looks for pulumi-resource-cdc.exe, then .cmd. */
function windowsLauncher(minNode, options) {
  return [
    "@echo off",
    `rem pulumi-cdc's provider plugin: needs Node.js >= ${minNode} on PATH.`,
    "where node >nul 2>nul",
    "if errorlevel 1 (",
    `  echo pulumi-resource-cdc needs Node.js ^>= ${minNode} on PATH, and there is no node: install Node.js ${minNode} or newer 1>&2`,
    "  exit /b 1",
    ")",
    `node ${options} "%~dp0${BUNDLE.replaceAll("/", "\\")}" %*`,
    "",
  ].join("\r\n");
}
