/**
 * The store's production HTTP server (ADR 010), started by server/index.ts.
 * `npm run build` bundles it into build/main.js; `npm run dev` runs it with
 * tsx under `remix dev`, which restarts it after each rebuild.
 *
 *   node build/server.js [path/to/build/index.js]
 *
 * Start-up order: configuration, the port, then every start-up step of the
 * store (database, migrations, catalogue, demo account...), each reported on
 * its own line with its time, and only then does the server listen: once it
 * says "Store ready", the first page is served at once.
 */
import type { Server } from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { broadcastDevReady, createRequestHandler, installGlobals, type ServerBuild } from "@remix-run/node";
import { getConfig, type Config } from "../app/config.server";
import { log } from "../app/http/logger.server";
import type { Runtime } from "../app/runtime.server";
import { seconds, startupReport, type StartupReport } from "../app/startup-report.server";
import { createStoreServer } from "./app";
import { LISTEN_BACKLOG } from "./connection-limits";
import { listenProblem, portProblem } from "./listen-errors";
import { installGracefulShutdown } from "./shutdown";

process.env.NODE_ENV ??= "production";

/** A start-up failure the person starting the store can fix: printed as its one line, no stack. */
class StartupError extends Error {}

/** Errors of the app whose message is already the whole story for a person. */
const EXPLAINED_ERRORS = new Set(["ConfigError", "DatabaseInUseError"]);

try {
  await main();
} catch (error) {
  if (!(error instanceof StartupError || isExplained(error))) throw error;
  console.error(error.message);
  process.exit(1);
}

async function main() {
  const started = performance.now();
  const config = getConfig();
  const mode = process.env.NODE_ENV;
  const problem = await portProblem(config.PORT, config.HOST);
  if (problem) throw new StartupError(problem);

  console.log(`Starting the store (Node.js ${process.versions.node}, ${mode})`);
  installGlobals({ nativeFetch: true });
  const build = await startupReport().step(
    "build",
    async () => (await import(pathToFileURL(path.resolve(process.argv[2] ?? "build/index.js")).href)) as ServerBuild,
    () => "loaded",
  );
  const runtime = await startStoreOf(build, startupReport());

  let isClosing = () => false;
  const server = createStoreServer({
    handleRequest: createRequestHandler(build, mode),
    config,
    assets: { publicPath: build.publicPath, directory: build.assetsBuildDirectory },
    isClosing: () => isClosing(),
    isReady: () => runtime.database.ping(),
  });
  const shutdown = installGracefulShutdown(server, {
    drainTimeoutMs: config.SHUTDOWN_DRAIN_MS,
    closeResources: () => runtime.database.close(),
    log: (msg, fields) => log("info", msg, fields),
    exit: (code) => process.exit(code),
  });
  isClosing = shutdown.isClosing;

  await listen(server, config);
  console.log(`Store ready at ${localUrl(config)} (${seconds(performance.now() - started)})`);
  if (mode === "development") void broadcastDevReady(build);
}

/** The build's entry module starts the store (app/runtime.server.ts), so the server and the app share one runtime. */
function startStoreOf(build: ServerBuild, report: StartupReport): Promise<Runtime> {
  const { startStore } = build.entry.module as { startStore?: (report: StartupReport) => Promise<Runtime> };
  if (!startStore) throw new StartupError("The build has no startStore export: run `npm run build` again.");
  return startStore(report);
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

/**
 * Errors whose message is already the whole story for a person. Matched by name: the app's
 * copy of the class lives in the Remix build, not in this bundle.
 */
function isExplained(error: unknown): error is Error {
  return error instanceof Error && EXPLAINED_ERRORS.has(error.name);
}
