/**
 * `npm run test:all`: every check CI runs, one after the other, each run to
 * its end even when one before it failed, then a table of what passed and how
 * long it took. Exits 1 when any failed. Checks that need PostgreSQL skip
 * with a reason when there is none (TEST_DATABASE_URL turns them on).
 */
import { spawnSync } from "node:child_process";

const STEPS = [
  { name: "type check", script: "typecheck" },
  { name: "lint (ESLint, Prettier, knip)", script: "lint" },
  { name: "unit and integration tests", script: "test" },
  // The end-to-end step builds the app (playwright.config.ts) before it runs.
  { name: "end-to-end tests (Chromium, JavaScript on and off)", script: "test:e2e" },
  // So the servers step runs on that build (`npm run test:servers` builds first, for a run of its own).
  { name: "several store processes behind a balancer", script: "test:servers:built" },
];

type Outcome = { name: string; passed: boolean; seconds: number };
const outcomes: Outcome[] = [];

for (const step of STEPS) {
  console.log(`\n::: ${step.name} (npm run ${step.script})`);
  const started = performance.now();
  const run = spawnSync("npm", ["run", step.script], { stdio: "inherit" });
  const seconds = (performance.now() - started) / 1000;
  const passed = run.status === 0;
  outcomes.push({ name: step.name, passed, seconds });
  console.log(`::: ${step.name}: ${passed ? "passed" : "FAILED"} in ${seconds.toFixed(1)} s`);
  // Ctrl-C reached the step too: the person at the terminal wants to stop, not the next step.
  if (run.signal === "SIGINT" || run.signal === "SIGTERM") break;
}

const width = Math.max(...STEPS.map((step) => step.name.length));
console.log(`\n::: summary\n${"step".padEnd(width)}  result  seconds`);
for (const { name, passed, seconds } of outcomes)
  console.log(`${name.padEnd(width)}  ${(passed ? "passed" : "FAILED").padEnd(6)}  ${seconds.toFixed(1).padStart(7)}`);
for (const step of STEPS.slice(outcomes.length)) console.log(`${step.name.padEnd(width)}  not run (interrupted)`);

const failed = outcomes.filter((outcome) => !outcome.passed).length + (STEPS.length - outcomes.length);
console.log(failed === 0 ? "\n::: all checks passed" : `\n::: ${failed} of ${STEPS.length} checks did not pass`);
process.exit(failed === 0 ? 0 : 1);
