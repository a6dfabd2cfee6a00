import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultFirstText, KIND_VALUES, oneOfText } from "../../catalogue/kind-values.js";

// Each kind's allowed values are written once, in catalogue/kind-values.ts: the provider's checks,
// the lookups, the plugin's schema and the SDK's types read them from there. The emulator keeps
// its own copies (it plays the service), and tests spell values out on purpose.

const root = resolve(__dirname, "..", "..");
const DATA = "catalogue/kind-values.ts";
/** The product's hand-written sources; generated files (generated/schema.json, the SDKs, docs) are derived from them. */
const PRODUCT = ["provider", "plugin", "cli", "sdk", "catalogue", "scripts/generate"];
const GENERATED = ["generated/typescript/"];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sources(path));
    else if (entry.endsWith(".ts") && !entry.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Where `text` spells out `values` again: runs of at least `min` different values, quoted
 * ("a", 'a', `a`) or bare words, one after another with only a list's separators between them
 * (`,`, `|`, `or`, `and`, `/`), as a TypeScript union, an array, a Set or a sentence lists them.
 */
export function restatements(text: string, values: readonly string[], min: number): string[] {
  const alternatives = [...values].sort((a, b) => b.length - a.length).map(escape).join("|");
  const value = new RegExp(`(["'\`])(${alternatives})\\1|(?<![\\w-])(${alternatives})(?![\\w-])`, "g");
  const separator = /^\s*(?:,|\||\/|or|and|,\s*or|,\s*and)?\s*$/;
  const found: string[] = [];
  let run: { start: number; end: number; seen: Set<string> } | undefined;
  const close = () => {
    if (run && run.seen.size >= min) found.push(text.slice(run.start, run.end));
  };
  for (const m of text.matchAll(value)) {
    const v = m[2] ?? m[3]!;
    const start = m.index!;
    if (run && separator.test(text.slice(run.end, start)) && !run.seen.has(v)) {
      run.seen.add(v);
      run.end = start + m[0].length;
    } else {
      close();
      run = { start, end: start + m[0].length, seen: new Set([v]) };
    }
  }
  close();
  return found;
}

/**
 * How many values in a row make a restatement: all of a short list, most of a long one (prose and
 * code name a few of the tag types, which are the kinds' plural nouns, in passing).
 */
const threshold = (values: readonly string[]) => Math.min(values.length, Math.max(4, Math.ceil(values.length * 0.6)));

describe("the kinds' allowed values", () => {
  it("finds a restated list, and not a passing mention", () => {
    const tags = KIND_VALUES.TAG_TYPES;
    expect(restatements(`const X = ["environment", "general", "sources", "destinations"];`, tags, 4)).toHaveLength(1);
    expect(restatements(`type?: Input<"7d" | "3d" | "24h" | "10m" | "0">`, KIND_VALUES.REPLAY_WINDOWS, 5)).toEqual([`"7d" | "3d" | "24h" | "10m" | "0"`]);
    expect(restatements("/** openai, anthropic, azure_openai, bedrock or google. */", KIND_VALUES.LLM_PROVIDERS, 5)).toHaveLength(1);
    expect(restatements("`active` (the default) or `paused`", KIND_VALUES.SOURCE_STATES, 2)).toEqual([]);
    expect(restatements('if (s === "active") return "paused";', KIND_VALUES.SOURCE_STATES, 2)).toEqual([]);
    expect(restatements("A tag for organising sources, destinations, pipelines and the platform's other objects.", tags, threshold(tags))).toEqual([]);
    expect(restatements('must be "DELETE", "DESCRIBE" or "READ"', KIND_VALUES.KAFKA_GROUP_OPERATIONS, 3)).toHaveLength(1);
  });

  const files = PRODUCT.flatMap((d) => sources(join(root, d)))
    .map((f) => relative(root, f))
    .filter((f) => f !== DATA && !GENERATED.some((g) => f.startsWith(g)));

  it.each(Object.entries(KIND_VALUES))("%s is written in catalogue/kind-values.ts only", (_name, values) => {
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((f) => restatements(readFileSync(join(root, f), "utf8"), values, threshold(values)).map((r) => `${f}: ${r}`));
    expect(found, "read the list from catalogue/kind-values.ts instead").toEqual([]);
  });

  it("are the lists the data module states (and it states each once)", () => {
    const data = readFileSync(join(root, DATA), "utf8");
    for (const [name, values] of Object.entries(KIND_VALUES)) {
      // SOURCE_STATES are DESTINATION_STATES' first two.
      expect(restatements(data, values, values.length), name).toHaveLength(values === KIND_VALUES.SOURCE_STATES ? 2 : 1);
    }
  });

  describe("in the plugin's schema (generated/schema.json)", () => {
    type Props = Record<string, { description: string }>;
    const schema = JSON.parse(readFileSync(join(root, "generated/schema.json"), "utf8")) as {
      resources: Record<string, { inputProperties: Props }>;
      types: Record<string, { properties: Props }>;
      functions: Record<string, { inputs: { properties: Props } }>;
    };
    const input = (kind: string, p: string) => schema.resources[`cdc:index:${kind}`]!.inputProperties[p]!.description;
    const typeProp = (type: string, p: string) => schema.types[`cdc:index:${type}`]!.properties[p]!.description;
    const list = (values: readonly string[]) => values.map((v) => `\`${v}\``).join(", ");
    const { TAG_TYPES, LLM_PROVIDERS, REPLAY_WINDOWS, SOURCE_STATES, DESTINATION_STATES, KAFKA_OPERATIONS, KAFKA_GROUP_OPERATIONS, KAFKA_PATTERN_TYPES, KAFKA_RESOURCES } = KIND_VALUES;

    it.each([
      ["Tag.type", () => input("Tag", "type"), list(TAG_TYPES)],
      ["getTags(type)", () => schema.functions["cdc:index:getTags"]!.inputs.properties.type!.description, list(TAG_TYPES)],
      ["LlmConnection.provider", () => input("LlmConnection", "provider"), list(LLM_PROVIDERS)],
      ["Transform.replayWindow", () => input("Transform", "replayWindow"), list(REPLAY_WINDOWS)],
      ["Source.desiredState", () => input("Source", "desiredState"), defaultFirstText(SOURCE_STATES)],
      ["Destination.desiredState", () => input("Destination", "desiredState"), defaultFirstText(DESTINATION_STATES)],
      ["KafkaAcl.operation", () => typeProp("KafkaAcl", "operation"), list(KAFKA_OPERATIONS)],
      ["KafkaAcl.operation (GROUP)", () => typeProp("KafkaAcl", "operation"), `GROUP rule only ${oneOfText(KAFKA_GROUP_OPERATIONS)}`],
      ["KafkaAcl.resource", () => typeProp("KafkaAcl", "resource"), defaultFirstText(KAFKA_RESOURCES)],
    ])("%s names the data module's values", (_what, description, expected) => {
      expect(description()).toContain(`${expected}`);
    });

    it("KafkaAcl.resourcePatternType names each pattern type", () => {
      for (const v of KAFKA_PATTERN_TYPES) expect(typeProp("KafkaAcl", "resourcePatternType")).toContain(`\`${v}\`:`);
    });
  });
});
