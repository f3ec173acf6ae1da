/**
 * Whether a browser sent this request from another site (a cross-site form or
 * fetch): `Sec-Fetch-Site` when the browser sends it, else `Origin` compared
 * with the request's own origin and the store's public one. Requests without
 * either header (not from a browser page) are not cross-site.
 */
export function isCrossSiteRequest(request: Request, publicBaseUrl?: string): boolean {
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (fetchSite) return fetchSite !== "same-origin" && fetchSite !== "none";
  const origin = request.headers.get("Origin");
  if (!origin) return false;
  const allowed = [new URL(request.url).origin, publicBaseUrl ? new URL(publicBaseUrl).origin : null];
  return !allowed.includes(origin);
}
