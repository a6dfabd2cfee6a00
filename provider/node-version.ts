/**
 * The Node.js version check every entry point (the SDK, the provider, the CLIs) imports first,
 * before anything that loads undici: on an older Node.js, undici dies at load time with a stack
 * trace about `createZstdDecompress` being undefined, which says nothing about the cause. This
 * says it in one line instead, and stops. Nothing else is imported here, so it runs first.
 */

/**
 * The oldest Node.js pulumi-cdc runs on: undici 8, its HTTP client, needs 22.19 (its `engines`),
 * and package.json says the same.
 */
export const MIN_NODE_VERSION = "22.19.0";

function parts(version: string): [number, number, number] | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined;
}

/**
 * The one-line error for a Node.js version older than `min`, or undefined when it is new enough
 * (or not a version at all: then nothing is known, and nothing is refused).
 */
export function nodeVersionProblem(version: string, min: string = MIN_NODE_VERSION): string | undefined {
  const have = parts(version);
  const need = parts(min);
  if (!have || !need) return undefined;
  for (let i = 0; i < 3; i++) {
    if (have[i]! > need[i]!) return undefined;
    if (have[i]! < need[i]!) {
      const shown = version.trim().replace(/^v/, "");
      return `pulumi-cdc needs Node.js >= ${min} (this is ${shown}): install a newer Node.js and run it again`;
    }
  }
  return undefined;
}

// At load: one line on stderr and exit 1, before the importing entry point loads anything else.
const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
