import { Link } from "@remix-run/react";
import type { PublicConfig } from "~/config.server";

/** Placeholder header: the storefront issue fills in menus, search and the cart badge. */
export function SiteHeader({ store }: { store: PublicConfig }) {
  return (
    <header className="site-header">
      <div className="container site-header__bar">
        <Link to="/" className="site-header__logo">
          {store.storeName}
        </Link>
        <a href={`tel:${store.storePhone.replace(/\D/g, "")}`}>{store.storePhone}</a>
      </div>
    </header>
  );
}
