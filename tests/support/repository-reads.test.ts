import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isBesideRepository, ReadBesideRepositoryError, REPOSITORY } from "./repository-reads";

describe("which paths are beside the repository", () => {
  const repository = "/home/dev/store";

  it("refuses a sibling folder and the parent itself, not the repository or paths elsewhere", () => {
    expect(isBesideRepository("/home/dev/shared/reference-catalog/blaze.json", repository, [])).toBe(true);
    expect(isBesideRepository("/home/dev/store/../shared", repository, [])).toBe(true);
    expect(isBesideRepository("/home/dev", repository, [])).toBe(true);
    expect(isBesideRepository("/home/dev/store-old/catalog", repository, [])).toBe(true);
    expect(isBesideRepository("/home/dev/store/catalog/blaze.json", repository, [])).toBe(false);
    expect(isBesideRepository("/home/dev/store", repository, [])).toBe(false);
    expect(isBesideRepository("/tmp/pglite-1/base", repository, [])).toBe(false);
    expect(isBesideRepository("/proc/self/status", repository, [])).toBe(false);
  });

  it("allows the folders it is given, and only those", () => {
    const allowed = ["/home/dev/shared/reference-catalog"];
    expect(isBesideRepository("/home/dev/shared/reference-catalog/blaze.json", repository, allowed)).toBe(false);
    expect(isBesideRepository("/home/dev/shared/spec", repository, allowed)).toBe(true);
  });

  it("stays off for a repository right under the filesystem root, where everything is beside it", () => {
    expect(isBesideRepository("/usr/lib/node", "/app", [])).toBe(false);
  });
});

const guardIsOn = path.dirname(REPOSITORY) !== path.parse(REPOSITORY).root;

describe.skipIf(!guardIsOn)("the read guard installed for every test file", () => {
  const sibling = path.join(REPOSITORY, "../shared/reference-catalog");
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("fails a read of ../shared, whether the folder is there or not", async () => {
    vi.stubEnv("REFERENCE_CATALOG_DIR", undefined); // as on a machine that does not name it
    expect(() => readFileSync(path.join(sibling, "README.md"))).toThrow(ReadBesideRepositoryError);
    expect(() => existsSync(sibling)).toThrow(/outside the repository/);
    expect(() => statSync(sibling)).toThrow(ReadBesideRepositoryError);
    expect(() => readdirSync(path.join(REPOSITORY, ".."))).toThrow(ReadBesideRepositoryError);
    expect(() => createReadStream(path.join(sibling, "blaze.json"))).toThrow(ReadBesideRepositoryError);
    await expect(readFile(path.join(sibling, "README.md"), "utf8")).rejects.toThrow(ReadBesideRepositoryError);
    await expect(stat(new URL(`file://${sibling}`))).rejects.toThrow(ReadBesideRepositoryError);
  });

  it("passes reads inside the repository and outside its parent folder", async () => {
    expect(JSON.parse(readFileSync(path.join(REPOSITORY, "package.json"), "utf8")).name).toBe("outdoor-living-store");
    expect(await readFile("package.json", "utf8")).toContain('"name"');
    expect(existsSync(path.join(REPOSITORY, "catalog"))).toBe(true);
    expect(() => statSync("/proc/self")).not.toThrow();
  });

  it("lets the tests read the folder REFERENCE_CATALOG_DIR names", () => {
    vi.stubEnv("REFERENCE_CATALOG_DIR", sibling);
    expect(() => existsSync(path.join(sibling, "README.md"))).not.toThrow();
    expect(() => existsSync(path.join(REPOSITORY, "../shared/spec"))).toThrow(ReadBesideRepositoryError);
  });

  it("lets a test read the folder it made with mkdtemp", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "repository-reads-"));
    try {
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
