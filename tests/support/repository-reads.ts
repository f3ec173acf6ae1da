import fs from "node:fs";
import fsPromises from "node:fs/promises";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Tests read nothing beside the repository. A fresh clone has nothing there
 * (CI's ../shared is not part of it), so a test that reads a sibling folder
 * passes on one machine and fails on the next. Installed for every test file
 * by vitest.config.ts (setupFiles): node:fs and node:fs/promises then refuse
 * to read, open, stat or list any path in the repository's parent folder that
 * is outside the repository.
 *
 * Still readable there: the folder REFERENCE_CATALOG_DIR names (the tests of
 * the full reference catalogue run only when it is given), folders made with
 * mkdtemp in the test process, and folders a test helper hands to
 * `allowReadsUnder` (a repository cloned into /tmp has its scratch folders
 * beside it). Paths elsewhere (Node's own, /proc, the temp folder) are no
 * sibling's. A repository right under the filesystem root has everything
 * beside it, so there the guard stays off.
 */

export const REPOSITORY = path.resolve(fileURLToPath(new URL("../..", import.meta.url)));

export class ReadBesideRepositoryError extends Error {
  constructor(target: string, operation: string) {
    super(
      `${operation}(${target}): outside the repository (${REPOSITORY}), in the folder beside it. ` +
        "A fresh clone has nothing there: commit a small fixture under the repository instead " +
        "(see tests/support/repository-reads.ts).",
    );
    this.name = "ReadBesideRepositoryError";
  }
}

function within(target: string, dir: string): boolean {
  const relative = path.relative(dir, target);
  return relative === "" || !(relative === ".." || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative));
}

/** True when `target` is in the repository's parent folder but outside the repository and every allowed folder. */
export function isBesideRepository(target: string, repository: string, allowed: readonly string[]): boolean {
  const parent = path.dirname(repository);
  if (parent === path.parse(parent).root) return false;
  const resolved = path.resolve(target);
  return within(resolved, parent) && !within(resolved, repository) && !allowed.some((dir) => within(resolved, dir));
}

// One state per process: the builtins outlive a test file's module graph.
const state: { allowed: string[]; installed: boolean } = ((globalThis as Record<symbol, unknown>)[Symbol.for("store.repositoryReads")] ??= {
  allowed: [],
  installed: false,
}) as { allowed: string[]; installed: boolean };

/** Lets the test process read `dir` even when it sits beside the repository (a scratch folder made for the run). */
export function allowReadsUnder(dir: string): void {
  state.allowed.push(path.resolve(dir));
}

function allowedFolders(): string[] {
  const reference = process.env.REFERENCE_CATALOG_DIR;
  return reference ? [...state.allowed, path.resolve(reference)] : state.allowed;
}

function pathOf(target: unknown): string | null {
  if (typeof target === "string") return target;
  if (Buffer.isBuffer(target)) return target.toString();
  if (target instanceof URL) return target.protocol === "file:" ? fileURLToPath(target) : null;
  return null; // a file descriptor: its path was checked when it was opened
}

function refusal(target: unknown, operation: string): ReadBesideRepositoryError | null {
  const file = pathOf(target);
  return file !== null && isBesideRepository(file, REPOSITORY, allowedFolders()) ? new ReadBesideRepositoryError(file, operation) : null;
}

type AnyFunction = (...args: unknown[]) => unknown;

function guarded(module: Record<string, unknown>, name: string, label: string, returnsPromise: boolean) {
  const original = module[name] as AnyFunction | undefined;
  if (typeof original !== "function") return;
  const wrapper = function (this: unknown, target: unknown, ...rest: unknown[]) {
    const error = refusal(target, label);
    if (error) {
      if (returnsPromise) return Promise.reject(error);
      throw error;
    }
    return original.call(this, target, ...rest);
  };
  module[name] = Object.assign(wrapper, original);
}

/** mkdtemp's folder is the test's own: recorded so that it stays readable wherever the temp folder is. */
function recordingScratch(module: Record<string, unknown>, name: string, kind: "sync" | "callback" | "promise") {
  const original = module[name] as AnyFunction | undefined;
  if (typeof original !== "function") return;
  module[name] = Object.assign(function (this: unknown, ...args: unknown[]) {
    if (kind === "sync") {
      const dir = original.apply(this, args) as string;
      allowReadsUnder(dir);
      return dir;
    }
    if (kind === "promise") {
      return (original.apply(this, args) as Promise<string>).then((dir) => {
        allowReadsUnder(dir);
        return dir;
      });
    }
    const callback = args.pop() as (error: Error | null, dir?: string) => void;
    return original.call(this, ...args, (error: Error | null, dir?: string) => {
      if (dir) allowReadsUnder(dir);
      callback(error, dir);
    });
  }, original);
}

const FS_READS = [
  "readFileSync",
  "readFile",
  "openSync",
  "open",
  "statSync",
  "stat",
  "lstatSync",
  "lstat",
  "readdirSync",
  "readdir",
  "opendirSync",
  "opendir",
  "existsSync",
  "accessSync",
  "access",
  "createReadStream",
];
const PROMISE_READS = ["readFile", "open", "stat", "lstat", "readdir", "opendir", "access"];

if (!state.installed) {
  state.installed = true;
  const sync = fs as unknown as Record<string, unknown>;
  const promises = fsPromises as unknown as Record<string, unknown>;
  for (const name of FS_READS) guarded(sync, name, `fs.${name}`, false);
  for (const name of PROMISE_READS) guarded(promises, name, `fs/promises.${name}`, true);
  recordingScratch(sync, "mkdtempSync", "sync");
  recordingScratch(sync, "mkdtemp", "callback");
  recordingScratch(promises, "mkdtemp", "promise");
  // ES module imports (`import { readFileSync } from "node:fs"`) see the wrapped functions too.
  syncBuiltinESMExports();
}
