/** The pure parts of the conformance run: which tests to run, and what `go test -v` said. */

export type Outcome = "pass" | "fail" | "skip";

/** The acceptance tests (`func TestAcc...`) declared in the given Go test sources. */
export function acceptanceTests(sources: readonly string[]): string[] {
  const names = new Set<string>();
  for (const text of sources) {
    for (const m of text.matchAll(/^func (TestAcc\w*)\(t \*testing\.T\)/gm)) names.add(m[1]!);
  }
  return [...names].sort();
}

/** The tests to run: every acceptance test but the excluded ones, optionally narrowed by a regex. */
export function selectTests(all: readonly string[], excluded: Readonly<Record<string, string>>, only?: string): string[] {
  const filter = only ? new RegExp(only) : undefined;
  return all.filter((name) => !(name in excluded) && (!filter || filter.test(name)));
}

/** Each top-level test's outcome from `go test -v` output (subtests, indented, are left out). */
export function parseGoTestOutput(output: string): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>();
  for (const m of output.matchAll(/^--- (PASS|FAIL|SKIP): (\w+) \(/gm)) {
    outcomes.set(m[2]!, m[1]!.toLowerCase() as Outcome);
  }
  return outcomes;
}

/**
 * Counts over the selected tests. A selected test that printed no outcome (the binary died or
 * timed out first) counts as failed, never as silently absent.
 */
export function tally(selected: readonly string[], outcomes: ReadonlyMap<string, Outcome>) {
  const by = { pass: [] as string[], fail: [] as string[], skip: [] as string[] };
  for (const name of selected) by[outcomes.get(name) ?? "fail"].push(name);
  return by;
}

/** The lines of one test's output in `go test -v` (from its `=== RUN` to its verdict). */
export function outputOf(output: string, test: string): string {
  const start = output.indexOf(`=== RUN   ${test}\n`);
  if (start < 0) return "";
  const end = output.indexOf(`--- `, start);
  const verdictEnd = end < 0 ? output.length : output.indexOf("\n", end);
  return output.slice(start, verdictEnd < 0 ? output.length : verdictEnd);
}

/**
 * The name a case folder of scripts/conformance/cases runs under, beside the vendor's TestAcc
 * names (so the same -run regex selects either): `pipeline-without-tags` is `Case_PipelineWithoutTags`.
 */
export function caseName(folder: string): string {
  return `Case_${folder
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join("")}`;
}

/**
 * How `terraform output -json` (`{name: {value, ...}}`) differs from the values a case expects
 * (`{name: value}`): one line per output that is missing or has another value; [] when none does.
 */
export function outputMismatches(expected: Readonly<Record<string, unknown>>, outputs: Readonly<Record<string, { value?: unknown }>>): string[] {
  return Object.entries(expected).flatMap(([name, value]) => {
    if (!(name in outputs)) return [`output ${name} is missing`];
    const got = JSON.stringify(outputs[name]!.value);
    return got === JSON.stringify(value) ? [] : [`output ${name} is ${got}, expected ${JSON.stringify(value)}`];
  });
}
