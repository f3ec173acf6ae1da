import { describe, expect, it } from "vitest";
import { startupReport } from "./startup-report.server";

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, isTTY, write: (text: string) => writes.push(text) };
}

/** A clock that moves 1.25 s per reading. */
function clock() {
  let now = 0;
  return () => (now += 1250);
}

describe("startupReport", () => {
  it("prints one line per step: its name, what it did and its time", async () => {
    const out = stream(false);
    const report = startupReport(out, clock());
    const count = await report.step(
      "catalogue",
      async () => 2522,
      (n) => `${n} products loaded`,
    );
    expect(count).toBe(2522);
    expect(out.writes).toEqual(["  catalogue   2522 products loaded (1.3 s)\n"]);
  });

  it("draws a progress bar only on a terminal, and clears it before the step's line", async () => {
    const piped = stream(false);
    await startupReport(piped, clock()).step(
      "catalogue",
      async (progress) => progress(1, 2),
      () => "done",
    );
    expect(piped.writes).toEqual(["  catalogue   done (1.3 s)\n"]);

    const terminal = stream(true);
    await startupReport(terminal, clock()).step(
      "catalogue",
      async (progress) => {
        progress(500, 2522);
        progress(2522, 2522);
      },
      () => "done",
    );
    expect(terminal.writes[0]).toBe("\r  catalogue   [#####-------------------] 500 / 2,522");
    expect(terminal.writes[1]).toBe("\r  catalogue   [########################] 2,522 / 2,522");
    expect(terminal.writes.at(-2)).toBe("\r\u001b[2K");
    expect(terminal.writes.at(-1)).toBe("  catalogue   done (1.3 s)\n");
  });

  it("prints nothing for a step that fails, and lets the failure through", async () => {
    const out = stream(true);
    const failing = startupReport(out, clock()).step(
      "database",
      async (progress) => {
        progress(1, 3);
        throw new Error("in use");
      },
      () => "never",
    );
    await expect(failing).rejects.toThrow("in use");
    expect(out.writes.at(-1)).toBe("\r\u001b[2K");
  });

  it("prints a step that ran before the report could, with the time it took", () => {
    const out = stream(false);
    startupReport(out, clock()).done("build", "loaded", 830);
    expect(out.writes).toEqual(["  build       loaded (0.8 s)\n"]);
  });
});
