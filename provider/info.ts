import { readFileSync } from "node:fs";
import { join } from "node:path";

export interface ProviderInfo {
  name: string;
  version: string;
}

// Read at call time from the installed package, so a state file records which provider build ran.
export function providerInfo(): ProviderInfo {
  const pkg = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8")) as ProviderInfo;
  return { name: pkg.name, version: pkg.version };
}
