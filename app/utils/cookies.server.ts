import { createCookie, type CookieOptions } from "@remix-run/node";
import type { Config } from "~/config.server";
import type { StoreRuntime } from "~/runtime.server";

/** What signing and flagging a cookie takes from the runtime: its secret, and SECURE_COOKIES. */
export type CookieKeys = Pick<StoreRuntime, "sessionSecret"> & { config: Pick<Config, "SECURE_COOKIES"> };

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

/**
 * A signed, httpOnly, SameSite=Lax cookie, signed with the runtime's session
 * secret (which may come from the database, so it is known only once the
 * store has started).
 */
export function signedCookie(name: string, options: CookieOptions = {}) {
  const cookieFor = (keys: CookieKeys) =>
    createCookie(name, { secrets: [keys.sessionSecret], httpOnly: true, sameSite: "lax", path: "/", ...options });
  return {
    /** The cookie's value; a cookie that cannot be read (forged, truncated, malformed) counts as absent, never as an error. */
    async parse(keys: CookieKeys, request: Request): Promise<unknown> {
      try {
        return await cookieFor(keys).parse(request.headers.get("Cookie"));
      } catch {
        return null;
      }
    },
    serialize(keys: CookieKeys, request: Request, value: unknown, overrides: CookieOptions = {}): Promise<string> {
      return cookieFor(keys).serialize(value, { secure: shouldUseSecureCookies(request, keys.config), ...overrides });
    },
  };
}
