/**
 * Which pages search engines leave alone. A page's route says it once, in its
 * `handle` (`export const handle: RouteHandle = { indexing: "private" }`,
 * RouteHandle in app/root.tsx), for itself and the routes under it: the
 * deepest declaration wins. Both things a crawler reads follow from it:
 *
 * - root renders `<meta name="robots" content="…">` for the page shown
 *   (robotsMetaContent, from the matched routes' handles);
 * - robots.txt disallows the URL of every page that is not to be crawled at
 *   all (private-paths.server.ts, from the build's routes at start).
 */
export const INDEXING = {
  /** Neither crawled (robots.txt disallows it) nor indexed (`noindex`): carts, checkouts, order pages. */
  private: { robots: "noindex", disallow: true },
  /** The same, and its links are not followed either: staff and developer pages, the chat. */
  "private, nofollow": { robots: "noindex, nofollow", disallow: true },
  /** The same as "private", saying outright that its links are followed (search results lead to products). */
  "private, follow": { robots: "noindex, follow", disallow: true },
  /** Left out of the index (`noindex`) but not of robots.txt: a crawler that fetches the page reads the tag. */
  noindex: { robots: "noindex", disallow: false },
  /** The same, and its links are not followed either. */
  "noindex, nofollow": { robots: "noindex, nofollow", disallow: false },
} as const satisfies Record<string, { robots: string; disallow: boolean }>;

export type Indexing = keyof typeof INDEXING;

function isIndexing(value: unknown): value is Indexing {
  return typeof value === "string" && Object.keys(INDEXING).includes(value);
}

/**
 * The indexing the deepest of these route handles declares (outermost first,
 * as useMatches lists them), or null when none does. A value that is not one
 * of INDEXING's is a mistake in a route module, said at once.
 */
export function declaredIndexing(handles: readonly unknown[]): Indexing | null {
  for (let i = handles.length - 1; i >= 0; i--) {
    const handle = handles[i];
    if (typeof handle !== "object" || handle === null || !("indexing" in handle) || handle.indexing === undefined) continue;
    if (!isIndexing(handle.indexing)) throw new Error(`Unknown indexing in a route's handle: ${JSON.stringify(handle.indexing)}`);
    return handle.indexing;
  }
  return null;
}

/**
 * The content of the page's `<meta name="robots">`, from its matched routes (outermost first, as useMatches lists them);
 * null: no tag, the page may be indexed. It runs in the browser too, so it only reads the deepest
 * declaration, "private" meaning "noindex" (as INDEXING says); a declaration that is not one of
 * INDEXING's stops the server at start, where privatePathsOf reads every route's.
 */
export function robotsMetaContent(matches: readonly { handle?: unknown }[]): string | null {
  let declared: unknown = null;
  for (const { handle } of matches) declared = (handle as { indexing?: unknown } | undefined)?.indexing ?? declared;
  return typeof declared === "string" ? declared.replace("private", "noindex") : null;
}
