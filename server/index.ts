/**
 * `npm start` runs this first (bundled alone as build/server.js): it checks the
 * Node.js version before anything else is loaded (a dependency may not even
 * load on an old Node), then loads the build, which holds the app and its
 * composition root (server/main.ts, compiled with the app into
 * build/index.js), and starts the store. `npm run dev` runs it with tsx.
 *
 *   node build/server.js [path/to/build/index.js]
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import type * as StoreServer from "./main";
import { nodeVersionProblem } from "./node-version";

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
process.env.NODE_ENV ??= "production";

const startedAt = performance.now();
const { startServer } = (await import(pathToFileURL(path.resolve(process.argv[2] ?? "build/index.js")).href)) as typeof StoreServer;
await startServer({ startedAt, buildLoadMs: performance.now() - startedAt });
