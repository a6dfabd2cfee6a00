import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Contract and end-to-end suites start real servers and the Pulumi engine; two cores, so keep the pool small.
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ["default"],
  },
});
