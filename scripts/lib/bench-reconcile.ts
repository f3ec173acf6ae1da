/**
 * The reconcile part of `npm run bench`: how long one sweep of the payment
 * reconciler takes to check 200 due attempts, on a scratch PGlite directory
 * and, given a PostgreSQL server, on a throwaway database there. No server
 * and no build: the sweep runs in this process, as a job's handler would.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseConfig } from "../../app/config.server";
import { openDatabase, type DatabaseTarget } from "../../app/db/database.server";
import { createJobs } from "../../app/jobs/queue.server";
import { sweepDueAttempts } from "../../app/payments/reconciler.server";
import { storeServices } from "../../app/services/store-services.server";
import { formatTable } from "./bundle-size";
import { insertDueAttempts } from "./due-payment-attempts";
import { postgresTarget } from "./bench-server";

const ATTEMPTS = 200;

interface Scratch {
  label: string;
  target: DatabaseTarget;
  dispose: () => Promise<void>;
}

function scratchPglite(): Scratch {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-reconcile-"));
  return { label: "PGlite", target: { pgliteDir: dir }, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
}

async function scratchPostgres(serverUrl: string): Promise<Scratch> {
  const { env, dispose } = await postgresTarget(serverUrl);
  return { label: "PostgreSQL", target: { url: env.DATABASE_URL! }, dispose };
}

/** One row: the database, then the sweep's figures. */
async function sweepRow(scratch: Scratch): Promise<string[]> {
  try {
    const handle = await openDatabase(scratch.target);
    try {
      await handle.migrate();
      await insertDueAttempts(handle.db, ATTEMPTS);
      // The offline test payment page answers "not paid yet": each check reads the checkout and the payment and puts the attempt off.
      const config = parseConfig({ PAYMENTS_TEST_MODE: "on" });
      const began = performance.now();
      // No queue runs: the sweep's next sweep is not queued, only measured.
      const report = await sweepDueAttempts({ db: handle.db, config, jobs: createJobs(), ...storeServices(config, handle.db) });
      const ms = performance.now() - began;
      return [scratch.label, String(report.claimed), String(report.rescheduled), (ms / 1000).toFixed(2), (ms / report.claimed).toFixed(1)];
    } finally {
      await handle.close();
    }
  } finally {
    await scratch.dispose();
  }
}

export async function benchReconcile(serverUrl: string | undefined): Promise<boolean> {
  console.log(`\n== Payment reconciler: one sweep of ${ATTEMPTS} due checks (batches of 25, 5 providers asked at once)`);
  const rows = [await sweepRow(scratchPglite())];
  if (serverUrl) rows.push(await sweepRow(await scratchPostgres(serverUrl)));
  console.log(formatTable(["database", "checked", "put off", "seconds", "ms a check"], rows, [false, true, true, true, true]));
  console.log(
    `On the offline test payment page, so this is the store's own work; a real provider's answer time comes on top, ` +
      `5 at a time (200 answers of 0.5 s add about 20 s).${serverUrl ? "" : " No BENCH_DATABASE_URL: PGlite only."}`,
  );
  return rows.every((row) => row[1] === String(ATTEMPTS));
}
