import { describe, expect, it } from "vitest";
import type { Database } from "~/db/database.server";
import { cachedUntilCatalogReload, forgetCatalogCaches } from "./queries.server";

describe("cachedUntilCatalogReload", () => {
  it("answers from the process until the catalog reloads, per database", async () => {
    const db = {} as Database;
    const other = {} as Database;
    let calls = 0;
    const compute = async () => ++calls;
    expect(await cachedUntilCatalogReload(db, "answer", compute)).toBe(1);
    expect(await cachedUntilCatalogReload(db, "answer", compute)).toBe(1);
    expect(await cachedUntilCatalogReload(other, "answer", compute)).toBe(2);
    forgetCatalogCaches(db);
    expect(await cachedUntilCatalogReload(db, "answer", compute)).toBe(3);
  });

  it("does not keep a failure", async () => {
    const db = {} as Database;
    await expect(cachedUntilCatalogReload(db, "answer", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await cachedUntilCatalogReload(db, "answer", async () => "up")).toBe("up");
  });
});
