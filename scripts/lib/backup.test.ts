import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { backupFileName, backupKindOf, BackupError, restorePglite, restorePostgres } from "./backup";

const dir = mkdtempSync(path.join(tmpdir(), "backup-kinds-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: Buffer | string): string {
  const full = path.join(dir, name);
  writeFileSync(full, content);
  return full;
}

/** A tar header's first block: "ustar" at byte 257 is what marks the archive. */
function tarBlock(): Buffer {
  const block = Buffer.alloc(512);
  block.write("PG_VERSION", 0, "latin1");
  block.write("ustar", 257, "latin1");
  return block;
}

const pgDump = file("a.dump", "PGDMP\x01\x0e\x00");
const pgliteDump = file("b.pglite.tar.gz", gzipSync(tarBlock()));

describe("backup files", () => {
  it("are named by kind and UTC time, so they sort by date", () => {
    const at = new Date("2026-11-27T21:05:09.123Z");
    expect(backupFileName("postgres", at)).toBe("store-20261127-210509.dump");
    expect(backupFileName("pglite", at)).toBe("store-20261127-210509.pglite.tar.gz");
  });

  it("are told apart by their first bytes, not their names", async () => {
    expect(await backupKindOf(pgDump)).toBe("postgres");
    expect(await backupKindOf(pgliteDump)).toBe("pglite");
    expect(await backupKindOf(file("renamed.dump", gzipSync(tarBlock())))).toBe("pglite");
    await expect(backupKindOf(file("notes.txt.gz", gzipSync("not a tar archive")))).rejects.toThrow(
      /is not a backup made by npm run db:backup/,
    );
    await expect(backupKindOf(file("empty", ""))).rejects.toThrow(BackupError);
    await expect(backupKindOf(path.join(dir, "absent.dump"))).rejects.toThrow(/^No backup file at /);
    await expect(backupKindOf(dir)).rejects.toThrow(/is not a file/);
  });

  it("of one kind of database are refused by the other, before anything is touched", async () => {
    const log = () => {};
    await expect(restorePglite(pgDump, path.join(dir, "never-made"), { force: true }, log)).rejects.toThrow(
      /is a PostgreSQL backup \(pg_dump\), but the store is configured for the embedded database \(PGLITE_DIR\)\. Set DATABASE_URL/,
    );
    await expect(restorePostgres(pgliteDump, "postgres://nobody@127.0.0.1:1/none", { force: true }, log)).rejects.toThrow(
      /is a backup of the embedded database \(PGlite\), but the store is configured for PostgreSQL \(DATABASE_URL\)\. Unset DATABASE_URL/,
    );
  });
});
