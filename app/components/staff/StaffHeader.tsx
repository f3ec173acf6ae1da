import { SiteLink } from "~/components/shared";
import { Form } from "@remix-run/react";
import type { StaffRole } from "~/staff/roles";
import { CsrfField } from "./CsrfField";

/**
 * The staff pages' own bar: where you are, the way back to the store, who is signed in and as what role
 * ("Signed in as jo@example.com (owner)", when the page passes the role), and sign out (a POST with the token).
 */
export function StaffHeader({ email, role, csrf }: { email: string; role?: StaffRole; csrf: string }) {
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
      <SiteLink to="/catalog" className="staff-header__link">
        Catalogue
      </SiteLink>
      <SiteLink to="/" className="staff-header__store">
        ← Back to the store
      </SiteLink>
      <div className="staff-header__user">
        <span>
          Signed in as <strong data-testid="staff-email">{email}</strong>
          {role ? (
            <>
              {" "}
              (<span data-testid="staff-role">{role}</span>)
            </>
          ) : null}
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
