/**
 * What the store's HTTP server hands every loader and action besides the
 * request. The server fills it from the connection (see ADR on the custom
 * server); tests may pass `{}`. Nothing in it comes from a header the
 * client controls unless TRUSTED_PROXIES says a proxy wrote it.
 */
export interface StoreLoadContext {
  /** The client's address: the socket peer, or the hop TRUSTED_PROXIES points at. */
  clientAddress?: string;
  /** A short id for this request, also in the JSON log line. */
  requestId?: string;
  /** The per-request nonce every inline <script> carries for the Content Security Policy. */
  cspNonce?: string;
}

declare module "@remix-run/node" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends StoreLoadContext {}
}

/** Used when a request reaches the app without a server-resolved address (unit tests, `remix dev`). */
export const UNKNOWN_CLIENT_ADDRESS = "unknown";

/** The address rate limits and sign-in delays are keyed by. Never read from request headers. */
export function clientAddressOf(context: StoreLoadContext | undefined): string {
  return context?.clientAddress || UNKNOWN_CLIENT_ADDRESS;
}
