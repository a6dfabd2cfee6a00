import { copyFile, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../emulator/index.js";
import { ENGINE_TIMEOUT_MS, TestStack } from "../support/pulumi.js";
import { previewReadmeProgram, readmeProgram } from "../support/readme-programs.js";
import { REPO_ROOT } from "../support/yaml.js";

// Every TypeScript example as a new user runs it: on a fresh stack against the emulator, the
// config commands of the example's README, then `pulumi preview` (which lists the creates), a
// plain `pulumi up --yes` (which previews again first), `pulumi preview --expect-no-changes`,
// and destroy. The YAML and Go quickstarts have suites of their own that begin the same way;
// adopt-tenant is a script, run by adopt-example.test.ts. And README.md's TypeScript program, as
// the README prints it, previews on a fresh stack (its YAML, Go and Python programs preview in
// those languages' suites).

/** Shell words of one command line: single and double quotes, no expansions (the READMEs use none). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

/** The README's run block: its `pulumi` commands, in order, without comments. */
async function readmeCommands(example: string): Promise<string[][]> {
  const text = await readFile(join(REPO_ROOT, "examples", example, "README.md"), "utf8");
  const block = [...text.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes("pulumi stack init"));
  if (!block) throw new Error(`examples/${example}/README.md has no bash block that runs the example`);
  return block
    .split("\n")
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l.startsWith("pulumi "))
    .map((l) => shellWords(l).slice(1));
}

/**
 * In README order, each group against an emulator of its own (the examples share names such as
 * `orders-<stack>`, as they would in two users' tenants); kafka-consumer reads what the pipeline
 * example made, so it runs after it, beside it.
 */
const GROUPS = [["quickstart"], ["fanout"], ["pipeline", "kafka-consumer"], ["agents"], ["ci-drift-check"], ["api-source"]];

describe("every TypeScript example, as its README runs it, on a fresh stack", { timeout: ENGINE_TIMEOUT_MS }, () => {
  const stacks: TestStack[] = [];
  let emulator: RunningEmulator | undefined;

  afterAll(async () => {
    // Dependents first: the consumer's stack before the pipeline's.
    for (const stack of stacks.reverse()) {
      await stack.cleanup();
    }
    await emulator?.stop();
  });

  async function runExample(example: string, api: RunningEmulator): Promise<TestStack> {
    const commands = await readmeCommands(example);
    const verbs = commands.map((c) => c.slice(0, 2).join(" "));
    // The README tells a new user to preview before the first up.
    expect(verbs.indexOf("preview")).toBeGreaterThan(-1);
    expect(verbs.indexOf("preview")).toBeLessThan(verbs.indexOf("up"));

    const stackName = commands.find((c) => c[0] === "stack" && c[1] === "init")![2]!;
    const stack = await TestStack.create(join(REPO_ROOT, "examples", example), { stackName });
    stacks.push(stack);
    const ours: Record<string, string> = { "cdc:apiUrl": api.url, "cdc:clientId": api.clientId, "cdc:clientSecret": api.clientSecret };
    for (const c of commands.filter((c) => c[0] === "config" && c[1] === "set")) {
      const args = c.slice(2);
      const key = args.find((a) => !a.startsWith("--"))!;
      const value = ours[key] ?? args[args.length - 1]!;
      await stack.run(["config", "set", "--stack", stackName, ...args.filter((a) => a.startsWith("--")), key, value]);
    }

    const preview = await stack.run(["preview", "--stack", stackName]);
    expect(preview.stdout).toMatch(/\+\s+pulumi-nodejs:dynamic\/cdc:\w+\s+\S+\s+create/);
    expect(preview.stdout).toMatch(/\+ \d+ to create/);
    expect(preview.output).not.toMatch(/error:/);

    const up = await stack.run(["up", "--yes", "--stack", stackName]);
    expect(up.stdout).toMatch(/\+ \d+ created/);
    await stack.run(["preview", "--expect-no-changes", "--stack", stackName]);
    return stack;
  }

  it.each(GROUPS.map((g) => [g.join(" and "), g] as const))("%s: pulumi preview, pulumi up, an empty preview, destroy", async (_name, group) => {
    emulator = await startEmulator({ port: 0 });
    const ran: TestStack[] = [];
    for (const example of group) ran.push(await runExample(example, emulator));
    for (const stack of ran.reverse()) {
      const destroy = await stack.destroy();
      expect(destroy.stdout).toMatch(/- \d+ deleted/);
      await stack.dispose();
      stacks.splice(stacks.indexOf(stack), 1);
    }
    await emulator.stop();
    emulator = undefined;
  });

  it("README.md's TypeScript program (its index.ts as printed) previews on a fresh stack: four creates", async () => {
    // The quickstart's package.json and tsconfig.json, and this checkout's node_modules (where
    // pulumi-cdc links to the checkout), as a program inside the repository finds them.
    const readme = await mkdtemp(join(tmpdir(), "pulumi-cdc-readme-ts-"));
    let readmeStack: TestStack | undefined;
    emulator = await startEmulator({ port: 0 });
    try {
      for (const file of ["package.json", "tsconfig.json"]) await copyFile(join(REPO_ROOT, "examples", "quickstart", file), join(readme, file));
      await symlink(join(REPO_ROOT, "node_modules"), join(readme, "node_modules"), "dir");
      await writeFile(join(readme, "index.ts"), await readmeProgram("ts"));
      await writeFile(join(readme, "Pulumi.yaml"), "name: cdc-readme\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n");
      // Type-checked by ts-node in the engine's run, as a reader's first preview is.
      readmeStack = await TestStack.create(readme, { stackName: "readme", typeCheck: true });
      await readmeStack.useApi(emulator);
      await previewReadmeProgram(readmeStack, "ts");
    } finally {
      await readmeStack?.dispose();
      await rm(readme, { recursive: true, force: true });
      await emulator.stop();
      emulator = undefined;
    }
  });
});
