import { spawnSync } from "node:child_process";
import { expect, test } from "@playwright/test";

test.describe("start-up configuration", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "server behavior: run once");

  test("a malformed DATABASE_URL stops the server with one line naming the key", () => {
    const result = spawnSync(process.execPath, ["./build/server.js"], {
      env: { ...process.env, DATABASE_URL: "nonsense" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    const errorLines = result.stderr.split("\n").filter((line) => line.trim() !== "");
    expect(errorLines).toEqual(["Configuration error: DATABASE_URL must be a postgres:// or postgresql:// URL."]);
  });
});
