import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { precompressAssets } from "./precompress";

describe("precompressAssets", () => {
  const directory = mkdtempSync(path.join(tmpdir(), "precompress-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("writes a brotli copy of every script and style sheet that shrinks, in every folder", async () => {
    const script = `export const greeting = "${"hello ".repeat(500)}";`;
    mkdirSync(path.join(directory, "_shared"));
    writeFileSync(path.join(directory, "_shared/chunk-A.js"), script);
    writeFileSync(path.join(directory, "app.css"), `.a{color:red}\n`.repeat(200));
    writeFileSync(path.join(directory, "tiny.js"), "1");
    writeFileSync(path.join(directory, "picture.svg"), "<svg/>".repeat(500));

    const written = await precompressAssets(directory);

    expect(written.files).toBe(2);
    expect(brotliDecompressSync(readFileSync(path.join(directory, "_shared/chunk-A.js.br"))).toString()).toBe(script);
    expect(existsSync(path.join(directory, "app.css.br"))).toBe(true);
    // A one-byte file grows when compressed; pictures are not scripts or style sheets.
    expect(existsSync(path.join(directory, "tiny.js.br"))).toBe(false);
    expect(existsSync(path.join(directory, "picture.svg.br"))).toBe(false);
  });
});
