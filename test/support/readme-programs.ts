import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import type { CommandResult, TestStack } from "./pulumi.js";
import { plain } from "./yaml.js";

// The four programs of README.md's section "A short program" (TypeScript on the dynamic classes,
// YAML, Go and Python on the plugin), taken from the README itself so that the end-to-end suite of
// each language previews exactly what a reader copies: yaml-quickstart, go-quickstart,
// python-quickstart and examples (TypeScript) each preview one on a fresh stack against their
// emulator, and previewReadmeProgram checks the plan.

const README = join(__dirname, "..", "..", "README.md");
const SECTION = "## A short program";

export type ReadmeLanguage = "ts" | "yaml" | "go" | "python";

/** The program of one language: the only fenced block with that language's tag in the section. */
export async function readmeProgram(language: ReadmeLanguage): Promise<string> {
  const text = await readFile(README, "utf8");
  const start = text.indexOf(`\n${SECTION}\n`);
  if (start < 0) throw new Error(`README.md has no section "${SECTION}"`);
  const rest = text.slice(start + SECTION.length + 2);
  const next = rest.search(/^## /m);
  const section = next < 0 ? rest : rest.slice(0, next);
  const blocks = [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === language).map((m) => m[2]!);
  if (blocks.length !== 1) throw new Error(`README.md's "${SECTION}" has ${blocks.length} \`\`\`${language} blocks, not one`);
  return blocks[0]!;
}

/** Each program's resources, as the engine's preview rows name them: [type token, name]. */
const CREATES: Record<ReadmeLanguage, Array<[string, string]>> = {
  ts: [
    ["pulumi-nodejs:dynamic/cdc:Tag", "pii"],
    ["pulumi-nodejs:dynamic/cdc:Source", "orders"],
    ["pulumi-nodejs:dynamic/cdc:Destination", "warehouse"],
    ["pulumi-nodejs:dynamic/cdc:ClientCredential", "dbt"],
  ],
  yaml: [
    ["cdc:index:Tag", "pii"],
    ["cdc:index:Source", "orders"],
    ["cdc:destinations:Snowflake", "warehouse"],
  ],
  go: [
    ["cdc:index:Tag", "pii"],
    ["cdc:sources:Postgresql", "orders"],
    ["cdc:destinations:Snowflake", "warehouse"],
  ],
  python: [
    ["cdc:index:Tag", "pii"],
    ["cdc:sources:Postgresql", "orders"],
    ["cdc:destinations:Snowflake", "warehouse"],
  ],
};

const DB_PASSWORD = "PGPASS-README-SENTINEL-3b9e";
const SNOWFLAKE_KEY = "SFKEY-README-SENTINEL-d41a";

/**
 * On the stack of a README program (fresh, its API connection already in its environment or
 * config): the two secrets the programs read, set as secret config; then a plain preview, which
 * must succeed and plan exactly the program's resources and its stack, with no error and neither
 * secret in plain text.
 */
export async function previewReadmeProgram(stack: TestStack, language: ReadmeLanguage): Promise<CommandResult> {
  await stack.setConfigs({}, { dbPassword: DB_PASSWORD, snowflakePrivateKey: SNOWFLAKE_KEY });
  const preview = await stack.run(["preview", "--stack", stack.stackName], { allowFailure: true });
  const output = plain(preview.output);
  expect(preview.code, `pulumi preview of README.md's ${language} program failed:\n${output}`).toBe(0);
  const creates = CREATES[language];
  for (const [token, name] of creates) {
    expect(output).toMatch(new RegExp(`\\+\\s+${token.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\s+${name}\\s+create\\b`));
  }
  // The resources and the stack itself, nothing else.
  expect(output).toMatch(new RegExp(`\\+ ${creates.length + 1} to create\\b`));
  expect(output).not.toMatch(/\berror:/);
  expect(output).not.toContain(DB_PASSWORD);
  expect(output).not.toContain(SNOWFLAKE_KEY);
  return { ...preview, output };
}
