/**
 * `npm start`: the store's production HTTP server (ADR 010). `npm run build`
 * bundles this file into build/server.js; `npm run dev` runs it with tsx under
 * `remix dev`, which restarts it after each rebuild.
 *
 *   node build/server.js [path/to/build/index.js]
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { broadcastDevReady, createRequestHandler, installGlobals, type ServerBuild } from "@remix-run/node";
import { ConfigError, getConfig, type Config } from "../app/config.server";
import { log } from "../app/http/logger.server";
import { createStoreServer } from "./app";
import { installGracefulShutdown } from "./shutdown";

process.env.NODE_ENV ??= "production";

await main();

async function main() {
  let config: Config;
  try {
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  installGlobals({ nativeFetch: true });
  const buildPath = path.resolve(process.argv[2] ?? "build/index.js");
  // Importing the build validates the configuration and opens the database (entry.server.tsx).
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  const mode = process.env.NODE_ENV;

  let isClosing = () => false;
  const server = createStoreServer({
    handleRequest: createRequestHandler(build, mode),
    config,
    assets: { publicPath: build.publicPath, directory: build.assetsBuildDirectory },
    isClosing: () => isClosing(),
  });

  const shutdown = installGracefulShutdown(server, {
    drainTimeoutMs: drainTimeoutMs(),
    closeResources: closeDatabase,
    log: (msg, fields) => log("info", msg, fields),
    exit: (code) => process.exit(code),
  });
  isClosing = shutdown.isClosing;

  const port = Number(process.env.PORT || 3000);
  const host = process.env.HOST || undefined;
  server.listen(port, host, () => {
    log("info", "listening", { url: `http://${host ?? "localhost"}:${port}`, mode });
    if (mode === "development") void broadcastDevReady(build);
  });
}

/** The database pool the app opened (runtime.server.ts keeps it on globalThis), closed after the last request. */
async function closeDatabase() {
  const runtime = await (globalThis as { __storeRuntime?: Promise<{ database: { close(): Promise<void> } }> }).__storeRuntime?.catch(
    () => undefined,
  );
  await runtime?.database.close();
}

/** In-flight requests get this long after SIGTERM (read after getConfig() has loaded .env); container runtimes wait 10 s before SIGKILL. */
function drainTimeoutMs(): number {
  const value = Number(process.env.SHUTDOWN_DRAIN_MS);
  return Number.isFinite(value) && value > 0 ? value : 8_000;
}
