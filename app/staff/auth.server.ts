import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { StoreRuntime } from "~/store-runtime";
import { isEmailAddress } from "~/utils/email-address.server";
import { fieldsOf, type FormFields } from "~/utils/forms.server";
import { verifyStaffCredentials } from "./accounts.server";
import type { StaffUser } from "./staff-user";
import { beginSignInAttempt, lockoutMessage } from "./lockout.server";
import { rateLimitRefusals } from "~/observability/metrics.server";

export const FILL_IN_ALL_FIELDS = "Please fill in all fields.";
/**
 * One message for an unknown email and a wrong password. The older screen
 * said "User not found." for an unknown email, which tells anyone which
 * staff emails exist; we deliberately do not.
 */
export const INVALID_CREDENTIALS = "Invalid email or password.";

/** A sign-in that did not succeed, with the message for the form. */
export class SignInError extends Error {
  constructor(
    message: string,
    readonly status: 400 | 401 | 429,
    /** With 429: seconds until this address may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "SignInError";
  }
}

export const STAFF_STRATEGY = "staff-form";

/** Reads the two fields; empty (or missing) ones are "". */
export function credentialsFrom(form: FormFields): { email: string; password: string } {
  return { email: (form.email ?? "").trim(), password: form.password ?? "" };
}

/** Who is signing in, besides what they typed. */
export interface SignInClient {
  /** The server-resolved address (context.clientAddress). */
  address: string;
  /** This browser's device id when it has signed in to the typed account before (known-device.server.ts). */
  knownDevice: string | null;
}

/**
 * remix-auth 4 only runs the strategy and returns its user; it keeps no
 * session. The route records the session (session-store.server.ts).
 */
export const staffAuthenticator = ({ db, clock }: Pick<StoreRuntime, "db" | "clock">, client: SignInClient) =>
  new Authenticator<StaffUser>().use(
    new FormStrategy<StaffUser>(async ({ form }) => {
      const { email, password } = credentialsFrom(fieldsOf(form));
      if (!email || !password) throw new SignInError(FILL_IN_ALL_FIELDS, 400);
      // An address no account can have (the accounts use the same rule) needs no database and counts no attempt.
      if (!isEmailAddress(email)) throw new SignInError(INVALID_CREDENTIALS, 401);
      const decision = await beginSignInAttempt(db, { email, ...client }, clock.now());
      if (decision.kind === "refused") {
        rateLimitRefusals.inc({ rule: "staff-lockout" });
        throw new SignInError(lockoutMessage(decision.retryAfterMinutes), 429, Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
      }
      if (decision.delayMs > 0) await clock.sleep(decision.delayMs);
      const user = await verifyStaffCredentials(db, email, password);
      if (!user) throw new SignInError(INVALID_CREDENTIALS, 401);
      await decision.attempt.succeeded();
      return user;
    }),
    STAFF_STRATEGY,
  );
