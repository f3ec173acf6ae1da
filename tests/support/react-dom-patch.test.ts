import { Writable } from "node:stream";
import { createElement as h } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

/**
 * What patches/react-dom+18.3.1.patch changes (decision 026), checked on the installed package: React 18's
 * server writer sent its whole 2 KB buffer when a multi-byte character ("·") did not fit at its end,
 * and with it an empty byte; a list page had a NUL before a facts line's "·".
 */
function page(items: number, pad: number) {
  const children = Array.from({ length: items }, (_, index) => h("i", { key: index }, "ab"));
  return h("div", null, ...children, h("p", null, `${"y".repeat(pad)}a · b`));
}

function streamed(element: ReturnType<typeof page>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
      final(done) {
        resolve(Buffer.concat(chunks));
        done();
      },
    });
    const stream = renderToPipeableStream(element, { onAllReady: () => stream.pipe(out), onError: reject });
  });
}

describe("React's server writer as patched", () => {
  it("writes a character that straddles its buffer's end whole, with no empty byte before it", async () => {
    // Some pair of these puts the "·" on the last byte of the 2,048-byte buffer.
    for (let items = 215; items < 235; items++) {
      for (let pad = 0; pad < 10; pad++) {
        const bytes = await streamed(page(items, pad));
        expect(bytes.includes(0)).toBe(false);
        expect(bytes.toString("utf8")).toBe(renderToString(page(items, pad)));
      }
    }
  });
});
