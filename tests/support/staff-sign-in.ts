import { expect } from "vitest";
import { action as loginAction, loader as loginLoader } from "~/routes/_staff.login";
import type { RouteFn, RouteOutcome } from "./route-outcome";
import { cookieFrom, formData, TEST_ORIGIN } from "./test-runtime";

export type StaffBrowser = { cookie: string; csrf: string };

/**
 * Signs in through the /login page and form, as a browser would, then opens `landing` (a staff page's loader
 * at `path`): the session cookie and the CSRF token its forms carry.
 */
export async function signInThroughLogin(
  call: (fn: RouteFn, request: Request) => Promise<RouteOutcome>,
  { email, password, path, landing }: { email: string; password: string; path: string; landing: RouteFn },
): Promise<StaffBrowser> {
  const page = await call(loginLoader as RouteFn, new Request(`${TEST_ORIGIN}/login`));
  const cookie = cookieFrom(page.headers.get("Set-Cookie"));
  const signedIn = await call(
    loginAction as RouteFn,
    new Request(`${TEST_ORIGIN}/login`, {
      method: "POST",
      body: formData({ email, password, csrf: String(page.data!.csrf), redirectTo: path }),
      headers: { Cookie: cookie },
    }),
  );
  expect(signedIn.status).toBe(303);
  const opened = await call(
    landing,
    new Request(`${TEST_ORIGIN}${path}`, { headers: { Cookie: cookieFrom(signedIn.headers.get("Set-Cookie")) } }),
  );
  expect(opened.status).toBe(200);
  return { cookie: cookieFrom(opened.headers.get("Set-Cookie")), csrf: String(opened.data!.csrf) };
}
