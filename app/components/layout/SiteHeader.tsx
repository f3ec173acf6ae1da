import { useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { PublicConfig } from "~/public-config.server";
import {
  telHref,
  ChatLink,
  CartIcon,
  ChatIcon,
  PhoneIcon,
  BRAND_MENU,
  CATEGORY_MENUS,
  PROMO_BANNER,
  UTILITY_LINKS,
  type Menu,
  SiteLink,
  KeptMarkup,
} from "~/components/shared";
import { SearchBox } from "./SearchBox";

/**
 * Desktop: utility bar, logo, search, phone and cart, then hover menus.
 * Menus open on hover and keyboard focus with CSS alone; script only adds
 * "one open at a time", click to toggle and Escape to close.
 * Mobile: one thin bar with the shipping notice and the phone number, a row
 * with the <details> drawer (works without script), the logo, chat and cart,
 * and the search box below it: about 130 px, the rest of the screen is the page's.
 * The chat sits in that row on phones instead of floating over the page (ChatButton).
 */
export function SiteHeader({ store, cartQuantity }: { store: PublicConfig; cartQuantity: number }) {
  return (
    <header className="site-header">
      <div className="site-header__bar">
        <p className="site-header__notice">Free Shipping on Orders Over $49</p>
        <a className="site-header__phone-bar" href={telHref(store.storePhone)}>
          <PhoneIcon size={14} /> <span className="site-header__phone-label">Call an expert: </span>
          {store.storePhone}
        </a>
      </div>
      <div className="site-header__utility container">
        <nav aria-label="Store services">
          <ul className="utility-links">
            {UTILITY_LINKS.map((link) => (
              <li key={link.label}>
                <SiteLink to={link.to}>{link.label}</SiteLink>
              </li>
            ))}
          </ul>
        </nav>
        <p className="site-header__pro">
          Pro pricing for contractors? Call <a href={telHref(store.storePhone)}>{store.storePhone}</a>
        </p>
      </div>
      <div className="site-header__main container">
        <MobileDrawer store={store} />
        <SiteLink to="/" className="site-header__logo" aria-label={`${store.storeName} home`}>
          {store.storeName}
        </SiteLink>
        <SearchBox />
        <a className="site-header__call" href={telHref(store.storePhone)}>
          <PhoneIcon />
          <span>
            <small>Talk to an expert</small>
            <strong>{store.storePhone}</strong>
          </span>
        </a>
        <ChatLink className="site-header__chat">
          <ChatIcon size={24} />
          <span className="visually-hidden">Chat with us</span>
        </ChatLink>
        <SiteLink to="/cart" className="cart-link" aria-label={`Cart, ${cartQuantity} ${cartQuantity === 1 ? "item" : "items"}`}>
          <CartIcon />
          {cartQuantity > 0 ? (
            <span className="cart-link__badge" data-testid="cart-badge">
              {cartQuantity}
            </span>
          ) : null}
        </SiteLink>
      </div>
      <DesktopMenus />
    </header>
  );
}

function DesktopMenus() {
  const [open, setOpen] = useState<string | null>(null);
  const location = useLocation();
  useEffect(() => setOpen(null), [location.key]);
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && setOpen(null);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  const menus = [...CATEGORY_MENUS, BRAND_MENU];
  return (
    <nav className="main-menu" aria-label="Product categories">
      <ul className="main-menu__list container">
        {menus.map((menu) => (
          <MenuItem
            key={menu.label}
            menu={menu}
            isOpen={open === menu.label}
            onOpen={() => setOpen(menu.label)}
            onClose={() => setOpen((current) => (current === menu.label ? null : current))}
          />
        ))}
        <li className="main-menu__promo">
          <SiteLink to={PROMO_BANNER.to}>{PROMO_BANNER.label}</SiteLink>
        </li>
      </ul>
    </nav>
  );
}

function MenuItem({ menu, isOpen, onOpen, onClose }: { menu: Menu; isOpen: boolean; onOpen: () => void; onClose: () => void }) {
  const panelId = `menu-${menu.label.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <li className={`main-menu__item${isOpen ? " is-open" : ""}`} data-scripted-menu="" onMouseEnter={onOpen} onMouseLeave={onClose}>
      <SiteLink to={menu.to} className="main-menu__top">
        {menu.label}
      </SiteLink>
      <button
        type="button"
        className="main-menu__toggle"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => (isOpen ? onClose() : onOpen())}
      >
        <span className="visually-hidden">Show {menu.label} menu</span>
        <span aria-hidden="true">▾</span>
      </button>
      <KeptMarkup
        as="ul"
        attributes={{ id: panelId, className: `main-menu__panel${menu.links.length > 8 ? " main-menu__panel--columns" : ""}` }}
        markupKey={() => `menu:${menu.label}`}
      >
        <MenuLinks links={menu.links} />
      </KeptMarkup>
    </li>
  );
}

function MenuLinks({ links }: { links: readonly Pick<Menu, "label" | "to">[] }) {
  return links.map((link) => (
    <li key={link.label}>
      <SiteLink to={link.to}>{link.label}</SiteLink>
    </li>
  ));
}

function MobileDrawer({ store }: { store: PublicConfig }) {
  const drawer = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (drawer.current) drawer.current.open = false;
    setOpen(false);
  }, [location.key]);
  useEffect(() => {
    document.body.classList.toggle("scroll-locked", open);
    return () => document.body.classList.remove("scroll-locked");
  }, [open]);

  return (
    <details className="drawer" ref={drawer} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className="drawer__toggle" aria-label="Menu">
        <span aria-hidden="true" className="drawer__bars" />
      </summary>
      <KeptMarkup as="div" attributes={{ className: "drawer__panel" }} markupKey={() => `drawer:${store.storePhone}:${store.storeEmail}`}>
        <DrawerMenu store={store} />
      </KeptMarkup>
    </details>
  );
}

function DrawerMenu({ store }: { store: PublicConfig }) {
  return (
    <nav aria-label="Mobile menu">
      <h2>Shop</h2>
      <ul>
        <MenuLinks links={CATEGORY_MENUS} />
      </ul>
      <h2>Brands</h2>
      <ul className="drawer__brands">
        <MenuLinks links={BRAND_MENU.links} />
      </ul>
      <h2>Help</h2>
      <ul>
        <li>
          <SiteLink to="/order-status">Check Order Status</SiteLink>
        </li>
        <li>Service hours: Monday to Friday, 8am to 6pm CT</li>
        <li>
          <a href={telHref(store.storePhone)}>Call {store.storePhone}</a>
        </li>
        <li>
          <ChatLink>Chat with us</ChatLink>
        </li>
        <li>
          <a href={`mailto:${store.storeEmail}`}>Email {store.storeEmail}</a>
        </li>
      </ul>
    </nav>
  );
}
