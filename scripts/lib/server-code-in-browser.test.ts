import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findServerCodeInBrowser, serverOnlyCodeOfInput } from "./server-code-in-browser";

describe("serverOnlyCodeOfInput", () => {
  it("names the server-only packages and real *.server modules", () => {
    expect(serverOnlyCodeOfInput("node_modules/drizzle-orm/pg-core/table.js")).toBe("drizzle-orm");
    expect(serverOnlyCodeOfInput("node_modules/zod/v4/core/core.js")).toBe("zod");
    expect(serverOnlyCodeOfInput("node_modules/@electric-sql/pglite/dist/index.js")).toBe("@electric-sql/pglite");
    expect(serverOnlyCodeOfInput("node_modules/postgres/src/index.js")).toBe("postgres");
    expect(serverOnlyCodeOfInput("node_modules/sharp/dist/index.mjs")).toBe("sharp");
    expect(serverOnlyCodeOfInput("app/catalog/drawings.server.ts")).toBe("*.server.ts");
    expect(serverOnlyCodeOfInput("app/staff/dashboard.server.ts")).toBe("*.server.ts");
  });

  it("lets the compiler's empty stand-ins and browser code pass", () => {
    expect(serverOnlyCodeOfInput("empty-module:~/staff/dashboard.server")).toBeNull();
    expect(serverOnlyCodeOfInput("app/orders/status.ts")).toBeNull();
    expect(serverOnlyCodeOfInput("node_modules/react-dom/index.js")).toBeNull();
  });
});

describe("findServerCodeInBrowser", () => {
  let root = "";
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function fakeBuild(chunks: Record<string, string>, outputs: Record<string, Record<string, number>>) {
    root = mkdtempSync(path.join(tmpdir(), "browser-code-"));
    mkdirSync(path.join(root, "public/build/routes"), { recursive: true });
    mkdirSync(path.join(root, "build"));
    for (const [file, text] of Object.entries(chunks)) writeFileSync(path.join(root, "public/build", file), text);
    const meta = Object.fromEntries(
      Object.entries(outputs).map(([file, inputs]) => [
        `public/build/${file}`,
        { inputs: Object.fromEntries(Object.entries(inputs).map(([input, bytes]) => [input, { bytesInOutput: bytes }])) },
      ]),
    );
    writeFileSync(path.join(root, "build/metafile.js.json"), JSON.stringify({ outputs: meta }));
  }

  it("finds a server package by the metafile and by its strings", () => {
    fakeBuild(
      { "routes/dashboard-A.js": 'var x=Symbol.for("drizzle:entityKind");', "manifest-1.js": "window.__remixManifest={}" },
      { "routes/dashboard-A.js": { "node_modules/drizzle-orm/entity.js": 120, "empty-module:~/staff/guard.server": 31 } },
    );
    const report = findServerCodeInBrowser({ root });
    expect(report.metafileUsed).toBe(true);
    expect(report.findings.map((f) => [f.file, f.code, f.detection])).toEqual([
      ["public/build/routes/dashboard-A.js", "drizzle-orm", "content"],
      ["public/build/routes/dashboard-A.js", "drizzle-orm", "metafile"],
    ]);
  });

  it("finds a bundled *.server module, and passes a clean build", () => {
    fakeBuild({ "routes/a-B.js": "export const a=1;" }, { "routes/a-B.js": { "app/config.server.ts": 400 } });
    expect(findServerCodeInBrowser({ root }).findings.map((f) => f.code)).toEqual(["*.server.ts"]);
    rmSync(root, { recursive: true, force: true });
    fakeBuild({ "routes/a-B.js": "export const a=1;" }, { "routes/a-B.js": { "app/orders/status.ts": 60 } });
    expect(findServerCodeInBrowser({ root }).findings).toEqual([]);
  });

  it("falls back to the strings when the metafile belongs to another build", () => {
    fakeBuild({ "routes/a-C.js": "class ZodError extends Error{}" }, {});
    const report = findServerCodeInBrowser({ root });
    expect(report.metafileUsed).toBe(false);
    expect(report.findings.map((f) => f.code)).toEqual(["zod"]);
  });
});
