import { createCookie, type CookieOptions } from "@remix-run/node";
import type { Config } from "~/config.server";
import type { StoreRuntime } from "~/store-runtime";

/** What signing and flagging a cookie takes from the runtime: its secret, and SECURE_COOKIES. */
export type CookieKeys = Pick<StoreRuntime, "sessionSecret"> & { config: Pick<Config, "SECURE_COOKIES"> };

/**
 * Whether a cookie set in answer to this request should be Secure, unless
 * SECURE_COOKIES forces it: when the request came over HTTPS. The request's
 * URL says so (the Express adapter builds it from req.protocol, which takes a
 * proxy's X-Forwarded-Proto only from TRUSTED_PROXIES: server/forwarded-headers.ts);
 * a header the client wrote never decides it.
 */
export function shouldUseSecureCookies(request: Request, config: Pick<Config, "SECURE_COOKIES">): boolean {
  if (config.SECURE_COOKIES === "always") return true;
  if (config.SECURE_COOKIES === "never") return false;
  return new URL(request.url).protocol === "https:";
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
