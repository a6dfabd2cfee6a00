import { existsSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { runSync } from "../lib/process.js";

/**
 * Builds from a clone of the vendor's Terraform provider, cached by the clone's commit (a dirty
 * clone is built every time): `npm run conformance` builds its acceptance tests, `npm run bench
 * -- --terraform <clone>` the provider itself. The vendor's code stays in the clone and the cache.
 */

/** Where the built binaries are kept: the toolchain's cache (PULUMI_CDC_CACHE, else ~/.cache/pulumi-cdc). */
export function conformanceCache(): string {
  const dir = join(process.env.PULUMI_CDC_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-cdc"), "conformance");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Why `vendor` cannot be built from (not a clone of the provider, or no Go), or undefined when it can. */
export function cannotBuild(vendor: string | undefined): string | undefined {
  if (!vendor) return "no clone of the vendor's Terraform provider was given";
  if (!existsSync(join(vendor, "internal", "provider", "provider_test.go"))) return `'${vendor}' is not a clone of the vendor's provider (no internal/provider/provider_test.go)`;
  if (runSync("go", ["version"], { timeoutMs: 60_000 }).code !== 0) return "no Go toolchain on PATH (go build makes the vendor's provider)";
  return undefined;
}

export type VendorBuild = "tests" | "provider";

/**
 * The binary of `what` built from the clone at `vendor`: "tests" is `go test -c ./internal/provider`
 * (the acceptance tests), "provider" is `go build .` (terraform-provider-streamkap, for a dev
 * override). Writes progress to `say`; throws when the build fails.
 */
export function buildVendor(vendor: string, what: VendorBuild, say: (line: string) => void): string {
  const commit = runSync("git", ["-C", vendor, "rev-parse", "--short=12", "HEAD"], { timeoutMs: 60_000 }).stdout.trim() || "unversioned";
  const dirty = runSync("git", ["-C", vendor, "status", "--porcelain"], { timeoutMs: 60_000 }).stdout.trim() !== "";
  const tag = `${commit}${dirty ? "-dirty" : ""}`;
  const cache = conformanceCache();
  // The provider goes in a folder of its own, named as terraform's dev_overrides want it.
  const binary = what === "tests" ? join(cache, `provider-${tag}.test`) : join(cache, `provider-${tag}`, "terraform-provider-streamkap");
  if (existsSync(binary) && !dirty) {
    say(`using the built ${what === "tests" ? "tests" : "provider"} ${binary}`);
    return binary;
  }
  const args = what === "tests" ? ["test", "-c", "-o", binary, "./internal/provider"] : ["build", "-o", binary, "."];
  say(`building the vendor's ${what === "tests" ? "acceptance tests" : "provider"} at ${tag} (go ${args.join(" ")}; minutes on the first run)`);
  const built = runSync("go", args, { cwd: vendor, timeoutMs: 60 * 60_000, inherit: true });
  if (built.code !== 0) throw new Error(`go ${args[0]} failed (see above)`);
  return binary;
}
