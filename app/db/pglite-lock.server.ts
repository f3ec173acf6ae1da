import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";

/** Holds the pid of the process that has the embedded database open. */
export const PGLITE_LOCK_FILE = "store.lock";

/**
 * Another process (or this one, through another handle) has the embedded
 * database directory open. PGlite allows one opener per directory: a second
 * one would corrupt it. The message is one line, fit to print as it is.
 */
export class DatabaseInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number | undefined,
  ) {
    const holder =
      pid === process.pid ? `already open in this process (pid ${pid})` : `in use by another process${pid ? ` (pid ${pid})` : ""}`;
    super(`The embedded database in ${dir} is ${holder}. Stop the store first, or set DATABASE_URL to use a PostgreSQL server.`);
    this.name = "DatabaseInUseError";
  }
}

/** Lock files this process holds, so a second open in the same process is refused too. */
const heldLocks = new Set<string>();

/**
 * Takes `<dir>/store.lock` for this process, or throws DatabaseInUseError when
 * a running process holds it. A lock left by a process that is gone (killed,
 * crashed, or an earlier life of this pid in a restarted container) is taken
 * over. Returns the release function; the lock is also released when the
 * process exits.
 */
export function lockPgliteDirectory(dir: string): () => void {
  const lockPath = path.join(path.resolve(dir), PGLITE_LOCK_FILE);
  if (heldLocks.has(lockPath)) throw new DatabaseInUseError(dir, process.pid);

  for (let attempt = 1; !createLockFile(lockPath); attempt++) {
    const owner = lockOwner(lockPath);
    if ((owner !== undefined && owner !== process.pid && isRunning(owner)) || attempt === 3) throw new DatabaseInUseError(dir, owner);
    removeFile(lockPath);
  }

  heldLocks.add(lockPath);
  const release = () => {
    if (!heldLocks.delete(lockPath)) return;
    process.removeListener("exit", release);
    try {
      if (lockOwner(lockPath) === process.pid) removeFile(lockPath);
    } catch {
      // An unremovable lock names a pid that will not be running: the next opener takes it over.
    }
  };
  process.on("exit", release);
  return release;
}

/** Creates the lock file holding this pid; false when it already exists. */
function createLockFile(lockPath: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The pid in the lock file; undefined when it is gone or holds no pid (a stale, half-written lock). */
function lockOwner(lockPath: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockPath, "utf8").trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Signal 0 checks a process exists without touching it; EPERM means it runs under another user. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function removeFile(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
