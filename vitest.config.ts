import path from "node:path";
import { defineConfig } from "vitest/config";

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
    // Fails a test on a console.error it did not expect (see the file for the opt-in).
    setupFiles: ["tests/support/console-error.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // PGlite opens a whole PostgreSQL in WebAssembly per test file; two at a time suit 2 cores.
    maxWorkers: 2,
  },
});
