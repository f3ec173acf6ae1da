import type { Config } from "~/config.server";

/**
 * Whether a cookie set in answer to this request should be Secure.
 * remix-serve always runs with NODE_ENV=production, so this follows the
 * request's protocol (or the proxy's X-Forwarded-Proto) unless
 * SECURE_COOKIES forces it.
 */
export function shouldUseSecureCookies(request: Request, config: Pick<Config, "SECURE_COOKIES">): boolean {
  if (config.SECURE_COOKIES === "always") return true;
  if (config.SECURE_COOKIES === "never") return false;
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
  return (forwarded ?? new URL(request.url).protocol.replace(":", "")) === "https";
}
