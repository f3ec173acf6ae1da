import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/**
 * Builds the app and serves it on a free port with an in-memory PGlite, then
 * runs every test twice: with JavaScript, and with it switched off.
 * Playwright re-reads this file in its workers; the port is fixed in the
 * environment on the first read so every process agrees on it.
 */
process.env.E2E_PORT ??= findFreePort();
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT}`;

const systemChromium = "/usr/bin/chromium";
const chromiumFlags = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  use: {
    baseURL,
    // Recording a trace costs every test its snapshots (about a tenth of the suite's time on a 2-core machine):
    // a failing test is retried in CI, and the retry records one.
    trace: "on-first-retry",
    launchOptions: {
      executablePath: existsSync(systemChromium) ? systemChromium : undefined,
      args: chromiumFlags,
    },
  },
  projects: [
    { name: "js-on", use: { ...devices["Desktop Chrome"], javaScriptEnabled: true } },
    { name: "js-off", use: { ...devices["Desktop Chrome"], javaScriptEnabled: false } },
  ],
  webServer: {
    command: "npm run build && node ./build/server.js",
    url: `${baseURL}/healthz`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "ignore", // one JSON line per request; errors still come through stderr
    stderr: "pipe",
    env: {
      PORT: process.env.E2E_PORT,
      HOST: "127.0.0.1",
      // Not the default 9464: a store the developer runs may hold it.
      METRICS_PORT: (process.env.E2E_METRICS_PORT ??= findFreePort()),
      PGLITE_DIR: "memory://e2e",
      PUBLIC_BASE_URL: baseURL,
      // Every request of the suite comes from 127.0.0.1: per-address rate limits are raised (the chat's per-conversation limit is not).
      RATE_LIMIT_SCALE: "100",
      // The suite buys the same few products again and again; tests/e2e/stock.spec.ts sets the counts it needs.
      STOCK_DEFAULT_ON_HAND: "100000",
      STAFF_DEMO_PASSWORD: "e2e-staff-password-0001", // the demo staff account tests/e2e/staff.spec.ts signs in with
    },
  },
});

function findFreePort(): string {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})";
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" });
}
