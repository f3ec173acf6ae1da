import { hasControlCharacters } from "~/utils/request-text";

/**
 * What the store's HTTP server does with a request before Remix sees it
 * (pure functions, so the server and the tests share them):
 *
 * - screenRequestTarget refuses an address whose path or query holds a control
 *   character once decoded (a NUL, a line break...): no page of ours has one,
 *   so it is a 400 before any loader runs. The routes hold on their own too
 *   (request-text.ts), this is the one place that refuses them all.
 * - neutralizeCrossSiteOrigin keeps Remix from turning a cross-site form post
 *   into a 500: Remix aborts an action with an exception when `Origin` names
 *   another host than `Host`. The server moves that verdict into
 *   `Sec-Fetch-Site: cross-site` and drops `Origin`, so the request reaches
 *   the action, whose readForm (or the JSON routes' check) answers the
 *   readable 403 in the store's layout.
 */

export const BAD_TARGET_MESSAGE = "This address holds characters that no page of this store uses. Please check the link.";

export function screenRequestTarget(target: string): Response | null {
  let url: URL;
  try {
    url = new URL(target, "http://screen.invalid");
  } catch {
    return badTarget();
  }
  const decodedPath = url.pathname.split("/").map(decodeSegment);
  if (decodedPath.some(hasControlCharacters)) return badTarget();
  for (const [name, value] of url.searchParams) if (hasControlCharacters(name) || hasControlCharacters(value)) return badTarget();
  return null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // Broken percent-encoding is left as it is (the router does the same): a page answers it, usually "not found".
    return segment;
  }
}

function badTarget(): Response {
  return new Response(BAD_TARGET_MESSAGE, {
    status: 400,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

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
