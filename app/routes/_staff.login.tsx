import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { CsrfField } from "~/components/staff/CsrfField";
import { credentialsFrom, FILL_IN_ALL_FIELDS, SignInError, STAFF_STRATEGY, staffAuthenticator } from "~/staff/auth.server";
import { RATE_LIMITS, retryAfterSeconds } from "~/security/rate-limit.server";
import { newCsrfToken, verifyCsrf } from "~/staff/csrf.server";
import { currentStaff } from "~/staff/guard.server";
import { knownDeviceCookieFor, knownDeviceFor } from "~/staff/known-device.server";
import { lockoutMessage } from "~/staff/lockout.server";
import { readStaffCookie, signedInCookie, signInFormCookie } from "~/staff/session.server";
import { createStaffSession, endSessionOfToken } from "~/staff/session-store.server";
import { readForm } from "~/utils/forms.server";
import { safeRedirectPath } from "~/utils/redirect";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { indexing: "private, nofollow" };

export const meta: MetaFunction = () => [{ title: "Staff sign-in" }];

const SIGN_IN_EXPIRED = "Your sign-in form expired. Please try again.";

/** Where to go after signing in: a path on this site, never back to /login or /logout. */
function targetFrom(value: unknown): string {
  const path = safeRedirectPath(value, "/dashboard");
  return /^\/(login|logout)(\/|\?|$)/.test(path) ? "/dashboard" : path;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const redirectTo = targetFrom(new URL(request.url).searchParams.get("redirectTo"));
  if (await currentStaff(context.store, request)) throw redirect(redirectTo, 303);
  // A signed-out browser's cookie carries only the sign-in form's CSRF token.
  const csrf = (await readStaffCookie(context.store, request)).csrf ?? newCsrfToken();
  return data({ csrf, redirectTo }, { headers: { "Set-Cookie": await signInFormCookie(context.store, request, csrf) } });
}

type LoginActionData = { error: string; email: string };

/**
 * After every POST the loader runs again (also with script, where Remix would
 * skip it after a 4xx): it alone hands out the form's CSRF token and sets the
 * cookie, so the page and the cookie always carry the same token, even when
 * the cookie had expired.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod === "POST" || defaultShouldRevalidate;

/**
 * The body is read from a clone: remix-auth's FormStrategy reads the
 * request itself. Order of checks: CSRF token, both fields filled, the
 * address's rate limit, then the strategy (lock-out, then the argon2 check).
 * A success records a new session (its own CSRF token), marks the browser a
 * known device of the account (its guesses then count apart from everyone
 * else's: lockout.server.ts) and goes to redirectTo or /dashboard.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const cookie = await readStaffCookie(context.store, request);
  const form = await readForm(request.clone(), context.store.config);
  const { email } = credentialsFrom(form);
  // A failure changes nothing in the session: no cookie here (see shouldRevalidate).
  const fail = (error: string, status: number, headers: Record<string, string> = {}) =>
    data<LoginActionData>({ error, email: email.slice(0, 254) }, { status, headers });

  if (!verifyCsrf(cookie.csrf, form)) return fail(SIGN_IN_EXPIRED, 403);
  const { password } = credentialsFrom(form);
  if (!email || !password) return fail(FILL_IN_ALL_FIELDS, 400);

  const db = context.store.db;
  const address = context.clientAddress;
  // Every sign-in post counts per address, right or wrong (failures also count in the lock-out).
  const limit = await context.store.rateLimiter.hit(RATE_LIMITS.staffSignIn, address);
  if (!limit.allowed) {
    return fail(lockoutMessage(Math.ceil(limit.retryAfterMs / 60_000)), 429, {
      "Retry-After": String(retryAfterSeconds(limit.retryAfterMs)),
    });
  }

  try {
    const knownDevice = await knownDeviceFor(context.store, request, email);
    const staff = await staffAuthenticator(context.store, { address, knownDevice }).authenticate(STAFF_STRATEGY, request);
    // A browser that was already signed in gets a new session; the old one ends.
    if (cookie.sid) await endSessionOfToken(db, cookie.sid);
    const session = await createStaffSession(db, staff.id, context.store.clock.now());
    const headers = new Headers();
    headers.append("Set-Cookie", await signedInCookie(context.store, request, session.token));
    headers.append("Set-Cookie", await knownDeviceCookieFor(context.store, request, staff.email));
    return redirect(targetFrom(form.redirectTo), { status: 303, headers });
  } catch (error) {
    if (error instanceof SignInError) {
      const headers: Record<string, string> = error.retryAfterSeconds ? { "Retry-After": String(error.retryAfterSeconds) } : {};
      return fail(error.message, error.status, headers);
    }
    throw error;
  }
}

export default function Login() {
  const { csrf, redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const error = actionData?.error;
  const errorRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (error) errorRef.current?.focus();
  }, [actionData, error]);

  return (
    <main id="main" className="staff-login">
      <div className="staff-login__card">
        <h1>Staff sign-in</h1>
        <p className="staff-login__intro">Sign in to review orders and update their status.</p>
        {error ? (
          <p ref={errorRef} tabIndex={-1} id="login-error" className="staff-login__error" role="alert">
            {error}
          </p>
        ) : null}
        <Form method="post" className="staff-login__form" aria-describedby={error ? "login-error" : undefined}>
          <CsrfField token={csrf} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <div className="field">
            <label htmlFor="login-email">Email</label>
            <input
              id="login-email"
              name="email"
              type="email"
              autoComplete="username"
              required
              defaultValue={actionData?.email ?? ""}
              key={actionData?.email ?? ""}
              maxLength={254}
            />
          </div>
          <div className="field">
            <label htmlFor="login-password">Password</label>
            <input id="login-password" name="password" type="password" autoComplete="current-password" required maxLength={256} />
          </div>
          <button type="submit" className="button button--primary button--block" disabled={submitting}>
            {submitting ? "Signing in…" : "Login"}
          </button>
        </Form>
      </div>
    </main>
  );
}
