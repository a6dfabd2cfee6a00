import { describe, expect, it } from "vitest";
import { acceptanceTests, caseName, outputMismatches, outputOf, parseGoTestOutput, selectTests, tally } from "../../../scripts/conformance/results.js";

const GO_OUTPUT = [
  "=== RUN   TestAccA",
  "--- PASS: TestAccA (1.20s)",
  "=== RUN   TestAccB",
  "    b_test.go:12: Step 1/3 error: After applying this test step, the refresh plan was not empty.",
  "--- FAIL: TestAccB (0.50s)",
  "=== RUN   TestAccC",
  "    c_test.go:9: Skipping TestAccC: TF_VAR_x not set",
  "--- SKIP: TestAccC (0.00s)",
  "=== RUN   TestAccD",
  "=== RUN   TestAccD/sub",
  "    --- PASS: TestAccD/sub (0.01s)",
  "",
].join("\n");

describe("conformance results", () => {
  it("finds the TestAcc functions of Go test sources, once each, sorted", () => {
    const sources = ["func TestAccB(t *testing.T) {}\nfunc helper(t *testing.T) {}\nfunc TestUnit(t *testing.T) {}", "func TestAccA(t *testing.T) {\n}\nfunc TestAccB(t *testing.T) {}"];
    expect(acceptanceTests(sources)).toEqual(["TestAccA", "TestAccB"]);
  });

  it("leaves out the excluded tests and narrows by a regex", () => {
    expect(selectTests(["TestAccA", "TestAccB", "TestAccC"], { TestAccB: "needs the vendor's tenant" })).toEqual(["TestAccA", "TestAccC"]);
    expect(selectTests(["TestAccA", "TestAccB", "TestAccC"], {}, "^TestAcc[BC]$")).toEqual(["TestAccB", "TestAccC"]);
  });

  it("reads top-level verdicts only, and counts a selected test with no verdict as failed", () => {
    const outcomes = parseGoTestOutput(GO_OUTPUT);
    expect([...outcomes]).toEqual([
      ["TestAccA", "pass"],
      ["TestAccB", "fail"],
      ["TestAccC", "skip"],
    ]);
    expect(tally(["TestAccA", "TestAccB", "TestAccC", "TestAccD"], outcomes)).toEqual({ pass: ["TestAccA"], fail: ["TestAccB", "TestAccD"], skip: ["TestAccC"] });
  });

  it("cuts one test's output from its RUN line to its verdict", () => {
    expect(outputOf(GO_OUTPUT, "TestAccB")).toMatch(/^=== RUN {3}TestAccB\n.*refresh plan was not empty\.\n--- FAIL: TestAccB \(0\.50s\)$/);
    expect(outputOf(GO_OUTPUT, "TestAccZ")).toBe("");
  });

  it("names a case folder so that the -run regex selects it beside the vendor's tests", () => {
    expect(caseName("pipeline-without-tags")).toBe("Case_PipelineWithoutTags");
    expect(selectTests([caseName("pipeline-without-tags"), "TestAccA"], {}, "^Case_")).toEqual(["Case_PipelineWithoutTags"]);
  });

  it("compares terraform's outputs with a case's expected values", () => {
    const outputs = { pipeline_tags: { value: ["670e5ca40afe1d3983ce0c22"], type: ["set", "string"], sensitive: false } };
    expect(outputMismatches({ pipeline_tags: ["670e5ca40afe1d3983ce0c22"] }, outputs)).toEqual([]);
    expect(outputMismatches({ pipeline_tags: [] }, outputs)).toEqual(['output pipeline_tags is ["670e5ca40afe1d3983ce0c22"], expected []']);
    expect(outputMismatches({ other: 1 }, outputs)).toEqual(["output other is missing"]);
  });
});
