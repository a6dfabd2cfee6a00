import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { must } from "./exec.js";

/**
 * What goes into the provider plugin, for every platform alike (the plugin is JavaScript): the
 * built plugin and core (dist/plugin, dist/provider, dist/catalogue), the schema, a package.json
 * naming the version and the Node.js it needs (`engines`), its production dependencies, and, of
 * @pulumi/pulumi, only the protocol definitions (plugin/proto.ts loads them). The launchers are
 * added per platform by plugin-tarballs.ts.
 *
 * This is the one step that decides the plugin's contents: a single bundle (esbuild) can replace
 * the copying and the npm install below without touching the rest of the release.
 */
export async function stagePluginContents(root: string, stage: string): Promise<void> {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string; license: string; engines: { node: string } };
  mkdirSync(join(stage, "dist"), { recursive: true });
  mkdirSync(join(stage, "plugin"), { recursive: true });
  for (const dir of ["plugin", "provider", "catalogue"]) cpSync(join(root, "dist", dir), join(stage, "dist", dir), { recursive: true });
  cpSync(join(root, "plugin", "schema.json"), join(stage, "plugin", "schema.json"));

  // The versions the repository is tested with, from its own install.
  const installed = (name: string) => (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
  const dependencies = Object.fromEntries(["undici", "zod", "diff", "@grpc/grpc-js", "google-protobuf"].map((name) => [name, installed(name)]));
  writeFileSync(
    join(stage, "package.json"),
    `${JSON.stringify({ name: "pulumi-resource-cdc", version: pkg.version, private: true, license: pkg.license, description: "The pulumi-cdc provider plugin", engines: pkg.engines, dependencies }, null, 2)}\n`,
  );
  // From the local npm cache when it has them (npm ci filled it), else the default registry.
  await must("npm", ["install", "--omit=dev", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", "--loglevel=error"], {
    cwd: stage,
    timeoutMs: 300_000,
  });
  pruneTests(join(stage, "node_modules"));
  // npm's links to the dependencies' commands: the plugin runs none, and `pulumi plugin install`
  // refuses a tarball whose symlinks it takes to point outside it.
  rmSync(join(stage, "node_modules", ".bin"), { recursive: true, force: true });
  const protoDir = join(stage, "node_modules", "@pulumi", "pulumi");
  mkdirSync(protoDir, { recursive: true });
  cpSync(join(root, "node_modules", "@pulumi", "pulumi", "proto"), join(protoDir, "proto"), { recursive: true });
  writeFileSync(join(protoDir, "package.json"), `${JSON.stringify({ name: "@pulumi/pulumi", version: installed("@pulumi/pulumi"), description: "protocol definitions only" }, null, 2)}\n`);
  cpSync(join(root, "LICENSE"), join(stage, "LICENSE"));
}

/** Some dependencies publish their own tests (@protobufjs/*: tests/): nothing loads them at run time, and the plugin ships none. */
function pruneTests(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (/^(test|tests|__tests__|fixtures?|__fixtures__)$/.test(entry.name)) rmSync(path, { recursive: true, force: true });
      else pruneTests(path);
    } else if (/\.(test|spec)\.[cm]?[jt]s$/.test(entry.name)) {
      rmSync(path, { force: true });
    }
  }
}
