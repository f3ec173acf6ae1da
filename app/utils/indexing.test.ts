import { describe, expect, it } from "vitest";
import { declaredIndexing, robotsMetaContent as metaOfMatches } from "./indexing";

const robotsMetaContent = (handles: unknown[]) => metaOfMatches(handles.map((handle) => ({ handle })));
import { privatePathsOf } from "./private-paths.server";

type Route = { id: string; path?: string; index?: boolean; parentId?: string; module: { handle?: unknown } };

/** A build's routes as server/main.ts reads them, each under root unless it names another parent. */
function routes(...list: Array<Omit<Route, "parentId"> & { parentId?: string }>): Record<string, Route> {
  const all: Route[] = [{ id: "root", path: "", module: {} }, ...list.map((route) => ({ parentId: "root", ...route }))];
  return Object.fromEntries(all.map((route) => [route.id, route]));
}

const page = (id: string, path: string, handle?: unknown, parentId?: string): Route => ({ id, path, parentId, module: { handle } });

describe("the robots meta tag of a page", () => {
  it("comes from the deepest route that declares an indexing", () => {
    expect(robotsMetaContent([undefined, { personal: true, indexing: "private" }])).toBe("noindex");
    expect(robotsMetaContent([{}, { indexing: "noindex, nofollow" }, { bareLayout: true }])).toBe("noindex, nofollow");
    expect(robotsMetaContent([{ indexing: "noindex, nofollow" }, { indexing: "private, follow" }])).toBe("noindex, follow");
  });

  it("is left out when no route declares one", () => {
    expect(robotsMetaContent([undefined, { personal: true }, { indexing: undefined }])).toBeNull();
  });

  it("refuses an indexing it does not know", () => {
    expect(() => declaredIndexing([{ indexing: "secret" }])).toThrow(/Unknown indexing/);
  });
});

describe("the paths robots.txt disallows", () => {
  it("are each private page's URL up to its first parameter", () => {
    const paths = privatePathsOf(
      routes(
        page("routes/cart", "cart", { indexing: "private" }),
        page("routes/finding.$search", "finding/:search", { indexing: "private, follow" }),
        page("routes/order-status.$id_.claim", "order-status/:id/claim", { indexing: "private" }),
        page("routes/dev.outbox", "dev/outbox", { indexing: "private, nofollow" }),
        page("routes/files.$", "files/*", { indexing: "private" }),
        page("routes/maybe.($lang).x", "maybe/:lang?/x", { indexing: "private" }),
      ),
    );
    expect(paths).toEqual(["/cart", "/dev/outbox", "/files/", "/finding/", "/maybe/", "/order-status/"]);
  });

  it("leave out pages that are only kept out of the index, and pages that declare nothing", () => {
    const paths = privatePathsOf(
      routes(
        page("routes/compare", "compare", { indexing: "noindex" }),
        page("routes/return-instructions", "return-instructions/:number", { indexing: "noindex, nofollow" }),
        page("routes/products", "products/:brand", { personal: true }),
        page("routes/cart", "cart", { indexing: "private" }),
      ),
    );
    expect(paths).toEqual(["/cart"]);
  });

  it("follow a declaration to the pages under it, through a layout without a path of its own", () => {
    const paths = privatePathsOf(
      routes(
        page("routes/_staff", "", { indexing: "noindex, nofollow" }),
        { id: "routes/_staff.logout", path: "logout", parentId: "routes/_staff", module: {} },
        page("routes/_staff.login", "login", { indexing: "private, nofollow" }, "routes/_staff"),
        page("routes/_desk", "", { indexing: "private" }),
        page("routes/_desk.returns", "returns", undefined, "routes/_desk"),
        page("routes/_desk.returns.$number", ":number", { indexing: "noindex" }, "routes/_desk.returns"),
        { id: "routes/_desk._index", index: true, parentId: "routes/_desk.returns", module: {} },
      ),
    );
    // The layouts have no URL; /returns/:number says "noindex", but robots.txt can only disallow /returns as a prefix.
    expect(paths).toEqual(["/login", "/returns"]);
  });

  it("keep one line for pages another line covers already", () => {
    const paths = privatePathsOf(
      routes(
        page("routes/checkout-confirmation", "checkout-confirmation", { indexing: "private" }),
        page("routes/checkout", "checkout", { indexing: "private" }),
        page("routes/order-status.$id", "order-status/:id", { indexing: "private" }),
        page("routes/order-status.$id_.return", "order-status/:id/return", { indexing: "private" }),
        page("routes/dev.outbox.$id", ":id", { indexing: "private" }, "routes/dev.outbox"),
        page("routes/dev.outbox", "dev/outbox", { indexing: "private" }),
      ),
    );
    expect(paths).toEqual(["/checkout", "/dev/outbox", "/order-status/"]);
  });

  it("refuse a private page whose URL has no fixed start: robots.txt would disallow the whole store", () => {
    expect(() => privatePathsOf(routes({ id: "routes/_index", index: true, module: { handle: { indexing: "private" } } }))).toThrow(
      /routes\/_index .*whole store/,
    );
    expect(() => privatePathsOf(routes(page("routes/$", "*", { indexing: "private" })))).toThrow(/routes\/\$ /);
  });
});
