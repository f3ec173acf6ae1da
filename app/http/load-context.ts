import type { MarkupCache } from "~/http/markup-cache.server";
import type { StoreRuntime } from "~/store-runtime";

/**
 * What the store's HTTP server hands every loader and action besides the
 * request (its getLoadContext, server/app.ts): the runtime the composition
 * root started (server/main.ts), and what it resolved for this request.
 * Nothing in it comes from a header the client controls unless
 * TRUSTED_PROXIES says a proxy wrote it. Tests build one with
 * tests/support/test-runtime.ts.
 */
export interface StoreLoadContext {
  /** The configuration, the database and the session secret, started once per process. */
  store: StoreRuntime;
  /** The client's address: the socket peer, or the hop TRUSTED_PROXIES points at. */
  clientAddress: string;
  /** A short id for this request, also in the JSON log line. */
  requestId: string;
  /** The per-request nonce every inline <script> carries for the Content Security Policy. */
  cspNonce: string;
  /** Parts drawn before (cards, menus, the footer's reviews), one cache per process (server/app.ts); absent, every part renders in full. */
  markupCache?: MarkupCache;
}

declare module "@remix-run/node" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends StoreLoadContext {}
}
