import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DatabaseInUseError, lockPgliteDirectory, PGLITE_LOCK_FILE } from "./pglite-lock.server";

/** The pid of a process that has already exited. */
function finishedPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid!;
}

describe("the embedded database directory lock", () => {
  let dir: string;
  let lockFile: string;
  const lockHolder = () => readFileSync(lockFile, "utf8").trim();

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "pglite-lock-"));
    lockFile = path.join(dir, PGLITE_LOCK_FILE);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("holds this pid while taken, refuses a second opener in this process, and is gone once released", () => {
    const release = lockPgliteDirectory(dir);
    expect(lockHolder()).toBe(String(process.pid));
    expect(() => lockPgliteDirectory(dir)).toThrow(DatabaseInUseError);
    release();
    expect(existsSync(lockFile)).toBe(false);
    lockPgliteDirectory(dir)();
  });

  it("refuses a directory a running process holds, in one line naming the directory and the pid", () => {
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"]);
    try {
      writeFileSync(lockFile, `${other.pid}\n`);
      expect(() => lockPgliteDirectory(dir)).toThrow(new DatabaseInUseError(dir, other.pid).message);
      expect(new DatabaseInUseError(dir, other.pid).message).toBe(
        `The embedded database in ${dir} is in use by another process (pid ${other.pid}). ` +
          "Stop the store first, or set DATABASE_URL to use a PostgreSQL server.",
      );
      expect(lockHolder()).toBe(String(other.pid));
    } finally {
      other.kill();
    }
  });

  it.each([
    ["a process that is no longer running", () => `${finishedPid()}\n`],
    ["an earlier process with this pid (a restarted container)", () => `${process.pid}\n`],
    ["no pid (a lock cut short while being written)", () => ""],
  ])("takes over a lock left by %s", (_, content) => {
    writeFileSync(lockFile, content());
    const release = lockPgliteDirectory(dir);
    expect(lockHolder()).toBe(String(process.pid));
    release();
  });

  it("is released when the process exits without releasing it", () => {
    const child = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `(await import(${JSON.stringify(path.resolve("app/db/pglite-lock.server.ts"))})).lockPgliteDirectory(process.env.LOCK_DIR);`,
      ],
      { env: { ...process.env, LOCK_DIR: dir }, encoding: "utf8" },
    );
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(existsSync(lockFile)).toBe(false);
  });
});
