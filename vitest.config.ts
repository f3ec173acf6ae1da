import path from "node:path";
import { defineConfig } from "vitest/config";

// Time-outs are there to end a test that hangs, never to fail a slow machine: generous, and
// multiplied by TEST_TIMEOUT_SCALE on a machine slower still (TEST_TIMEOUT_SCALE=3 npm test).
const scale = Number(process.env.TEST_TIMEOUT_SCALE) || 1;

export default defineConfig({
  resolve: { alias: { "~": path.resolve("app") } },
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "scripts/**/*.test.ts",
      "server/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      "tests/security/**/*.test.ts",
      "tests/support/**/*.test.ts",
    ],
    // Fails a test that reads beside the repository (a fresh clone has nothing there), and a test
    // that logs an error it did not expect (see tests/support/error-log.ts for the opt-in).
    setupFiles: ["tests/support/repository-reads.ts", "tests/support/error-log.ts"],
    // One migrated database (and one with the catalogue) per run; each test file opens its own copy.
    globalSetup: ["tests/support/test-database-snapshots.ts"],
    environment: "node",
    testTimeout: 180_000 * scale,
    hookTimeout: 300_000 * scale,
    // expect.poll waits for a condition instead of a fixed sleep; this long at most.
    expect: { poll: { timeout: 30_000 * scale } },
    // Each test file runs a PGlite (PostgreSQL in WebAssembly); two at a time suit 2 cores.
    maxWorkers: 2,
  },
});
