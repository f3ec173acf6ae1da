import type { PublicConfig } from "~/config.server";

/** Placeholder footer: the storefront issue fills in policies, signup and testimonials. */
export function SiteFooter({ store }: { store: PublicConfig }) {
  return (
    <footer className="site-footer">
      <div className="container">
        <p>
          © {new Date().getFullYear()} {store.storeName}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
