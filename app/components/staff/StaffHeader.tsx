import { SiteLink } from "~/components/shared";
import { Form } from "@remix-run/react";
import { CsrfField } from "./CsrfField";

/** The staff pages' own bar: where you are, the way back to the store, who is signed in, and sign out (a POST with the token). */
export function StaffHeader({ email, csrf }: { email: string; csrf: string }) {
  return (
    <header className="staff-header">
      <p className="staff-header__title">Order dashboard</p>
      <SiteLink to="/returns" className="staff-header__link">
        Returns
      </SiteLink>
      <SiteLink to="/tax-report" className="staff-header__link">
        Sales tax
      </SiteLink>
      <SiteLink to="/stock" className="staff-header__link">
        Stock
      </SiteLink>
      <SiteLink to="/" className="staff-header__store">
        ← Back to the store
      </SiteLink>
      <div className="staff-header__user">
        <span>
          Signed in as <strong data-testid="staff-email">{email}</strong>
        </span>
        <Form method="post" action="/logout">
          <CsrfField token={csrf} />
          <button type="submit" className="button button--small">
            Sign out
          </button>
        </Form>
      </div>
    </header>
  );
}
