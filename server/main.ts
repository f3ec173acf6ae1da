/**
 * The store's composition root (ADR 025): the one place that builds the
 * configuration, the runtime (database, migrations, every start-up step) and
 * the HTTP server, and hands the runtime to every loader and action through
 * the load context. Remix compiles this file together with the app into
 * build/index.js (remix.config.js `server`), so the server and the routes
 * share one copy of every module; server/index.ts loads it after checking the
 * Node.js version and calls startServer.
 *
 * Start-up order: configuration, the port, then every start-up step of the
 * store (database, migrations, catalogue, demo account...), each reported on
 * its own line with its time, and only then does the server listen: once it
 * says "Store ready", the first page is served at once.
 */
import type { Server } from "node:http";
import { performance } from "node:perf_hooks";
import * as build from "@remix-run/dev/server-build";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import { registerStoreIdentity } from "../app/components/layout/store-identity";
import { ConfigError, getConfig, type Config } from "../app/config.server";
import { DatabaseInUseError } from "../app/db/database.server";
import { log } from "../app/observability/logger.server";
import { publicConfig } from "../app/public-config.server";
import { readAtScrape } from "../app/observability/metrics.server";
import { oldestUnfinishedAttemptStartedAt } from "../app/payments/attempts.server";
import { heldStock } from "../app/stock/stock-holds.server";
import { startStoreRuntime } from "../app/runtime.server";
import { privatePathsOf } from "../app/utils/private-paths.server";
import type { StoreRuntime } from "../app/store-runtime";
import { seconds, startupReport } from "../app/startup-report.server";
import { createStoreServer } from "./app";
import { LISTEN_BACKLOG } from "./connection-limits";
import { listenProblem, METRICS_PORT_SETTINGS, portProblem } from "./listen-errors";
import { startMetricsServer } from "./metrics-server";
import { installGracefulShutdown } from "./shutdown";

/** A start-up failure the person starting the store can fix: printed as its one line, no stack. */
class StartupError extends Error {}

export interface StartTiming {
  /** When the process started loading this build (performance.now()), for the total time to "Store ready". */
  startedAt: number;
  /** How long loading the build took, printed as the report's first step. */
  buildLoadMs: number;
}

/** Starts the store and its server; a mistake a person can fix is said in one line and ends the process. */
export async function startServer(timing: StartTiming): Promise<void> {
  try {
    await start(timing);
  } catch (error) {
    if (!(error instanceof StartupError || error instanceof ConfigError || error instanceof DatabaseInUseError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

async function start({ startedAt, buildLoadMs }: StartTiming) {
  const config = getConfig();
  const mode = build.mode;
  const problem = await portProblem(config.PORT, config.HOST);
  if (problem) throw new StartupError(problem);
  const metricsProblem =
    config.METRICS_PORT === null ? null : await portProblem(config.METRICS_PORT, config.METRICS_HOST, METRICS_PORT_SETTINGS);
  if (metricsProblem) throw new StartupError(metricsProblem);

  process.stdout.write(`Starting the store (Node.js ${process.versions.node}, ${mode})\n`);
  installGlobals({ nativeFetch: true });
  const report = startupReport();
  report.done("build", "loaded", buildLoadMs);
  // What robots.txt disallows, from the routes' own declarations (handle.indexing): a mistaken one stops the start here.
  const privatePaths = privatePathsOf(build.routes);
  const store = await startStoreRuntime(config, report, { privatePaths });
  registerStoreIdentity(publicConfig(config));

  let isClosing = () => false;
  const server = createStoreServer({
    build,
    store,
    config,
    isClosing: () => isClosing(),
    isReady: () => store.database.ping(),
    requestMetrics: config.METRICS_PORT !== null,
  });
  const metricsServer = await serveMetrics(store, config);
  const shutdown = installGracefulShutdown(server, {
    drainTimeoutMs: config.SHUTDOWN_DRAIN_MS,
    closeResources: async () => {
      metricsServer?.close();
      await store.database.close();
    },
    log: (msg, fields) => log("info", msg, fields),
    exit: (code) => process.exit(code),
  });
  isClosing = shutdown.isClosing;

  await listen(server, config);
  process.stdout.write(`Store ready at ${localUrl(config)} (${seconds(performance.now() - startedAt)})\n`);
  if (mode === "development") void broadcastDevReady(build);
}

/** The process's metrics on their own port (none with METRICS_PORT=off), with the readers of what only the database knows. */
async function serveMetrics(store: StoreRuntime, config: Config): Promise<Server | null> {
  if (config.METRICS_PORT === null) return null;
  readAtScrape({
    ready: () => store.database.ping(),
    oldestUnfinishedPaymentStartedAt: () => oldestUnfinishedAttemptStartedAt(store.db),
    jobQueueDepths: () => store.jobs.depths(),
    stockHolds: () => heldStock(store.db),
  });
  try {
    return await startMetricsServer(config.METRICS_PORT, config.METRICS_HOST);
  } catch (error) {
    const explained = listenProblem(error as NodeJS.ErrnoException, config.METRICS_PORT, config.METRICS_HOST, METRICS_PORT_SETTINGS);
    throw explained ? new StartupError(explained) : error;
  }
}

function listen(server: Server, config: Config): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const explained = listenProblem(error, config.PORT, config.HOST);
      reject(explained ? new StartupError(explained) : error);
    });
    server.listen(config.PORT, config.HOST, LISTEN_BACKLOG, () => resolve());
  });
}

function localUrl(config: Config): string {
  const host = !config.HOST || config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST;
  return `http://${host.includes(":") ? `[${host}]` : host}:${config.PORT}`;
}
