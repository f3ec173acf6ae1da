import { afterEach, describe, expect, test, vi } from "vitest";

type FetchPatches = (
  paths: string[],
  errorReloadPath: string | null,
  manifest: { version: string; routes: Record<string, unknown> },
  routeModules: Record<string, unknown>,
  future: Record<string, unknown>,
  isSpaMode: boolean,
  basename: string | undefined,
  patchRoutes: (parentId: string | null, routes: unknown[]) => void,
) => Promise<void>;

/** The server loads the CommonJS build, the browser bundle the ES module: both are patched. */
type FogOfWar = { fetchAndApplyManifestPatches: FetchPatches };
const commonJsBuild = (await import("@remix-run/react/dist/fog-of-war.js")) as unknown as FogOfWar;
// @ts-expect-error -- the ES module build ships no type declarations of its own (they sit beside the CommonJS one)
const esModuleBuild = (await import("@remix-run/react/dist/esm/fog-of-war.js")) as FogOfWar;
const BUILDS: Array<[string, FetchPatches]> = [
  ["CommonJS build", commonJsBuild.fetchAndApplyManifestPatches],
  ["ES module build", esModuleBuild.fetchAndApplyManifestPatches],
];

/**
 * What patches/@remix-run+react+2.17.5.patch changes in lazy route discovery (ADR 017): the
 * `/__manifest` query for the links on a page is built apart from the URL, because appending to
 * `url.searchParams` writes the whole URL again each time (20 ms for a list's 257 links in Chromium,
 * under 1 ms built apart). The request it makes is the one Remix made.
 */
describe.each(BUILDS)("route discovery as patched: %s", (_name, fetchAndApplyManifestPatches) => {
  afterEach(() => vi.unstubAllGlobals());

  function stubBrowser() {
    const fetch = vi.fn(async () => Response.json({}));
    vi.stubGlobal("window", { location: { origin: "https://store.test", href: "https://store.test/" } });
    vi.stubGlobal("sessionStorage", { getItem: () => null, setItem: () => undefined, removeItem: () => undefined });
    vi.stubGlobal("fetch", fetch);
    return fetch;
  }

  test("asks for every path once, sorted, with the build's version last", async () => {
    const fetch = stubBrowser();
    await fetchAndApplyManifestPatches(
      ["/product/b-2", "/cart", "/product/a 1"],
      null,
      { version: "v1", routes: {} },
      {},
      {},
      false,
      "/",
      () => undefined,
    );
    expect(fetch).toHaveBeenCalledOnce();
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toBe(
      "https://store.test/__manifest?p=%2Fcart&p=%2Fproduct%2Fa+1&p=%2Fproduct%2Fb-2&version=v1",
    );
  });

  test("a page with more links than a URL can carry asks for nothing (discovery then happens on the click)", async () => {
    const fetch = stubBrowser();
    const paths = Array.from({ length: 400 }, (_, index) => `/product/brand-${1_000_000 + index}`);
    await fetchAndApplyManifestPatches(paths, null, { version: "v1", routes: {} }, {}, {}, false, "/", () => undefined);
    expect(fetch).not.toHaveBeenCalled();
  });
});
