import type { ReactNode } from "react";
import { StaffHeader } from "./StaffHeader";

/** Every staff page's frame: the skip link, the header with sign-out, and the page's main content. */
export function StaffPage({ email, csrf, children }: { email: string; csrf: string; children: ReactNode }) {
  return (
    <div className="staff-page">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <StaffHeader email={email} csrf={csrf} />
      <main id="main" className="staff-main">
        {children}
      </main>
    </div>
  );
}
