import { describe, expect, it } from "vitest";
import { DRIFT_USAGE, parseCommandLine, USAGE, UsageError } from "../../../cli/args.js";

function usageError(argv: string[]): UsageError {
  try {
    parseCommandLine(argv);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`expected a usage error for ${JSON.stringify(argv)}`);
}

describe("parseCommandLine", () => {
  it("parses drift with every option, in both long and short forms", () => {
    expect(parseCommandLine(["drift", "--stack", "dev", "--cwd", "infra", "--json"])).toEqual({
      command: "drift",
      options: { stack: "dev", cwd: "infra", format: "json" },
    });
    expect(parseCommandLine(["drift", "-s", "prod", "-C", "/abs/dir"])).toEqual({
      command: "drift",
      options: { stack: "prod", cwd: "/abs/dir", format: "human" },
    });
    expect(parseCommandLine(["drift", "--stack=org/proj/dev"])).toEqual({ command: "drift", options: { stack: "org/proj/dev", format: "human" } });
  });

  it("parses --format and --summary-file; --json is --format json", () => {
    expect(parseCommandLine(["drift", "--format", "markdown"])).toEqual({ command: "drift", options: { format: "markdown" } });
    expect(parseCommandLine(["drift", "-f", "json", "--summary-file", "out/summary.md"])).toEqual({ command: "drift", options: { format: "json", summaryFile: "out/summary.md" } });
    expect(parseCommandLine(["drift", "--summary-file=/tmp/s.md"])).toEqual({ command: "drift", options: { format: "human", summaryFile: "/tmp/s.md" } });
    expect(parseCommandLine(["drift", "--json", "--format", "json"])).toEqual({ command: "drift", options: { format: "json" } });
  });

  it("rejects a bad --format, --json beside another format, and an empty or missing --summary-file, naming the flag", () => {
    expect(usageError(["drift", "--format", "html"])).toMatchObject({ message: "--format must be one of human, json, markdown, got 'html'", usage: DRIFT_USAGE });
    expect(usageError(["drift", "--json", "--format", "markdown"]).message).toBe("--json and --format markdown ask for two formats: give one of them");
    // An unset $GITHUB_STEP_SUMMARY outside GitHub Actions.
    expect(usageError(["drift", "--summary-file", ""]).message).toMatch(/^--summary-file needs a file path, got ''/);
    expect(usageError(["drift", "--summary-file=-x"]).message).toMatch(/^--summary-file needs a file path, got '-x'/);
    expect(usageError(["drift", "--summary-file"]).message).toMatch(/--summary-file.*argument missing/);
    expect(usageError(["drift", "--format"]).message).toMatch(/--format.*argument missing/);
  });

  it("leaves the stack unset when not given (the selected stack is used)", () => {
    expect(parseCommandLine(["drift"])).toEqual({ command: "drift", options: { format: "human" } });
  });

  it("shows the general usage for no arguments, --help and help, and the drift usage for drift --help", () => {
    expect(parseCommandLine([])).toEqual({ command: "help", usage: USAGE });
    expect(parseCommandLine(["--help"])).toEqual({ command: "help", usage: USAGE });
    expect(parseCommandLine(["help", "drift"])).toEqual({ command: "help", usage: DRIFT_USAGE });
    expect(parseCommandLine(["drift", "--help"])).toEqual({ command: "help", usage: DRIFT_USAGE });
    expect(parseCommandLine(["drift", "-h", "--stack", "dev"])).toEqual({ command: "help", usage: DRIFT_USAGE });
  });

  it("rejects unknown commands and options with the matching usage", () => {
    expect(usageError(["drfit"])).toMatchObject({ message: "unknown command 'drfit'", usage: USAGE });
    expect(usageError(["--json"])).toMatchObject({ message: "unknown option '--json' before the command", usage: USAGE });
    expect(usageError(["drift", "--jsn"])).toMatchObject({ message: "Unknown option '--jsn'", usage: DRIFT_USAGE });
    expect(usageError(["drift", "dev"]).message).toMatch(/^Unexpected argument 'dev'/);
  });

  it("rejects an option without its value instead of taking the next flag as the value", () => {
    expect(usageError(["drift", "--stack"]).message).toMatch(/--stack.*argument missing/);
    expect(usageError(["drift", "--stack", "--json"]).message).toMatch(/--stack.*ambiguous/);
    expect(usageError(["drift", "--stack="]).message).toBe("--stack needs a stack name, got ''");
    expect(usageError(["drift", "--cwd=  "]).message).toBe("--cwd needs a directory, got '  '");
    expect(usageError(["drift", "--json=yes"]).message).toMatch(/does not take an argument/);
  });

  it("documents the exit codes and the companion preview command", () => {
    expect(DRIFT_USAGE).toContain("0 no drift, 2 drift found, 1 error");
    expect(DRIFT_USAGE).toContain("pulumi preview --expect-no-changes");
    expect(DRIFT_USAGE).toContain("--format <fmt>");
    expect(DRIFT_USAGE).toContain('--summary-file "$GITHUB_STEP_SUMMARY"');
  });
});
