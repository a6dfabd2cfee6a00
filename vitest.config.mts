import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * The files that run longest, longest first (a fresh clone's `npm test` on 2 cores, issue 38): they
 * start first, so that the two workers end together on short files instead of one waiting minutes
 * for the other's last long file. Vitest's own order, the one the rest keep, is by the durations
 * of the last run where it has them (not in a fresh clone), else largest file first, which put the
 * Go quickstart (a short file, minutes of go build) near the end. Only the order: every file runs.
 */
const SLOWEST_FIRST = [
  "test/e2e/pipeline.test.ts",
  "test/e2e/go-quickstart.test.ts",
  "test/e2e/chaos.test.ts",
  "test/e2e/recover-pipelines.test.ts",
  "test/e2e/import-tenant.test.ts",
  "test/e2e/examples.test.ts",
  "test/e2e/policy-pack.test.ts",
  "test/contract/cli/drift.test.ts",
  "test/e2e/python-quickstart.test.ts",
  "test/e2e/upgrade.test.ts",
  "test/e2e/topic-destination-fan-in.test.ts",
  "test/e2e/admin-scope.test.ts",
  "test/e2e/sweep.test.ts",
  "test/e2e/pipeline-resource.test.ts",
  "test/e2e/import.test.ts",
  "test/e2e/smt-chain.test.ts",
  "test/e2e/agents.test.ts",
  "test/e2e/topic-destination.test.ts",
  "test/e2e/kafka-user.test.ts",
  "test/unit/sdks.test.ts",
  "test/e2e/yaml-quickstart.test.ts",
  "test/unit/python-sdk.test.ts",
  "test/e2e/live-checks.test.ts",
  "test/e2e/catalogue.test.ts",
  "test/e2e/references.test.ts",
  "test/e2e/import-typed.test.ts",
  "test/e2e/import-ts.test.ts",
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rest = await super.sort(files);
    // Then the other end-to-end files (each some seconds of engine runs), then the rest.
    const rank = (spec: TestSpecification) => {
      const i = SLOWEST_FIRST.findIndex((f) => spec.moduleId.endsWith(`/${f}`));
      if (i >= 0) return i;
      return /\/test\/e2e\//.test(spec.moduleId) ? SLOWEST_FIRST.length : SLOWEST_FIRST.length + 1;
    };
    // Array.prototype.sort is stable: the files off the list keep vitest's order among themselves.
    return rest.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Contract and end-to-end suites start real servers and the Pulumi engine; two cores, so keep the pool small.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ["default"],
    sequence: { sequencer: SlowestFirst },
  },
});
