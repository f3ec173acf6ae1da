import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/utils/redirect";

/** Where a browser would go when sent to `location` from a page of the store. */
function resolvedByBrowser(location: string): URL {
  return new URL(location, "https://shop.example/checkout");
}

describe("redirect guard", () => {
  it.each([
    "/.//evil.example/",
    "/./\\evil.example",
    "/%2e%2e//evil.example",
    "/%2E//evil.example",
    "/..//evil.example",
    "/a/..//evil.example",
    "/\\/evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n//evil.example",
    "\\\\evil.example",
    "/%09/evil.example",
    " //evil.example",
  ])("keeps %j on the site", (input) => {
    const output = safeRedirectPath(input, "/cart");
    expect(resolvedByBrowser(output).host).toBe("shop.example");
    expect(output.startsWith("//")).toBe(false);
  });

  it("keeps an encoded slash as part of a path, not a host", () => {
    expect(resolvedByBrowser(safeRedirectPath("/%2F/evil.example")).host).toBe("shop.example");
  });

  it("never sends a browser off the site and never throws, whatever the input", () => {
    const pathish = fc.array(fc.constantFrom("/", "\\", ".", "%2e", "%2f", "%5c", "evil.example", "\t", "\n", ":", "@", "?", "#", "a"), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string({ unit: "binary" }),
          pathish.map((parts) => parts.join("")),
        ),
        (input) => {
          const output = safeRedirectPath(input, "/fallback");
          expect(typeof output).toBe("string");
          expect(output.startsWith("/")).toBe(true);
          expect(resolvedByBrowser(output).origin).toBe("https://shop.example");
        },
      ),
      { numRuns: 5000 },
    );
  });
});
