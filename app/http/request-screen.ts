/**
 * neutralizeCrossSiteOrigin keeps Remix from turning a cross-site form post
 * into a 500: Remix aborts an action with an exception when `Origin` names
 * another host than `Host`. The store's HTTP server moves that verdict into
 * `Sec-Fetch-Site: cross-site` and drops `Origin`, so the request reaches the
 * action, whose readForm (or the JSON routes' check) answers the readable 403
 * in the store's layout. Control characters in an address are left to the
 * routes (app/utils/request-text.ts): a search for one shows the search page.
 */

export function neutralizeCrossSiteOrigin(request: Request): Request {
  const origin = request.headers.get("Origin");
  if (!origin || !["POST", "PUT", "PATCH", "DELETE"].includes(request.method)) return request;
  const host = request.headers.get("Host") ?? new URL(request.url).host;
  if (originHost(origin) === host) return request;
  const headers = new Headers(request.headers);
  headers.delete("Origin");
  headers.set("Sec-Fetch-Site", "cross-site");
  return new Request(request, { headers });
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
