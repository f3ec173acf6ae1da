import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * The resilience tests (tests/resilience): the production build (`npm run
 * build` first) run as real store processes on a real PostgreSQL, with a TCP
 * proxy, Caddy (deploy/Caddyfile) and a load generator around them. They take
 * minutes, so they are not part of `npm test`:
 *   npm run test:servers     three processes behind Caddy, one killed under load (about 1.5 minutes; in .ci/run)
 *   npm run test:resilience  the above, database faults, SIGTERM and the 60 s load
 * PostgreSQL: RESILIENCE_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres;
 * each file creates its own database and drops it.
 */
// As in vitest.config.ts: generous, and multiplied by TEST_TIMEOUT_SCALE on a slower machine.
const scale = Number(process.env.TEST_TIMEOUT_SCALE) || 1;

export default defineConfig({
  resolve: { alias: { "~": path.resolve("app") } },
  test: {
    include: ["tests/resilience/**/*.test.ts"],
    environment: "node",
    testTimeout: 240_000 * scale,
    hookTimeout: 240_000 * scale,
    // One file at a time: each starts store processes and the load test needs the machine to itself.
    fileParallelism: false,
    reporters: ["verbose"],
  },
});
