import { createCookie, type Cookie, type CookieOptions } from "@remix-run/node";
import type { Config } from "~/config.server";
import { getRuntime } from "~/runtime.server";

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
 * The secret that signs every cookie. This module is the one place outside
 * routes that reads the runtime: cookies are read and written from many
 * call sites that only hold the request, and the secret may come from the
 * database, so it is looked up on first use.
 */
export async function cookieSecret(): Promise<string> {
  return (await getRuntime()).sessionSecret;
}

/** Whether a cookie set in answer to this request should be Secure, under the runtime's configuration. */
export async function secureCookieFor(request: Request): Promise<boolean> {
  return shouldUseSecureCookies(request, (await getRuntime()).config);
}

/**
 * A signed, httpOnly, SameSite=Lax cookie, created on first use with the
 * runtime's session secret (which may come from the database).
 */
export function signedCookie(name: string, options: CookieOptions = {}) {
  let cookie: Cookie | undefined;
  const get = async () => {
    cookie ??= createCookie(name, {
      secrets: [await cookieSecret()],
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      ...options,
    });
    return cookie;
  };
  return {
    /** The cookie's value; a cookie that cannot be read (forged, truncated, malformed) counts as absent, never as an error. */
    async parse(request: Request): Promise<unknown> {
      try {
        return await (await get()).parse(request.headers.get("Cookie"));
      } catch {
        return null;
      }
    },
    async serialize(request: Request, value: unknown, overrides: CookieOptions = {}): Promise<string> {
      return (await get()).serialize(value, { secure: await secureCookieFor(request), ...overrides });
    },
  };
}
