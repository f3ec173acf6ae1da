import type { ReactNode } from "react";
import type { StaffRole } from "~/staff/roles";
import { StaffHeader } from "./StaffHeader";

/**
 * Every staff page's frame: the skip link, the header with who is signed in (and their role, from the
 * loader's `staff.staff.role`) and sign-out, and the page's main content.
 */
export function StaffPage({ email, role, csrf, children }: { email: string; role?: StaffRole; csrf: string; children: ReactNode }) {
  return (
    <div className="staff-page">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <StaffHeader email={email} role={role} csrf={csrf} />
      <main id="main" className="staff-main">
        {children}
      </main>
    </div>
  );
}
