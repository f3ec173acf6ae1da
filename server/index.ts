/**
 * `npm start` runs this first: it checks the Node.js version before anything
 * else is loaded (a dependency may not even load on an old Node), then starts
 * the server (main.ts; bundled as build/main.js next to build/server.js).
 */
import { nodeVersionProblem } from "./node-version";

const problem = nodeVersionProblem(process.versions.node);
if (problem) {
  console.error(problem);
  process.exit(1);
}
// A computed specifier, so the bundler keeps main.js out of this file and loads it only after the check.
await import(new URL("./main.js", import.meta.url).href);
