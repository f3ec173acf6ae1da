import { useNavigate } from "@remix-run/react";
import { useEffect, type AnchorHTMLAttributes } from "react";

/**
 * A link to one of the store's pages, drawn as a plain <a>. The page's one click handler
 * (`useSiteLinkNavigation`) opens it client-side, as Remix's <Link> would; before
 * script runs it is an ordinary link. `data-site-link` is what the click handler looks for. It
 * carries no `data-discover`, Remix's mark for lazy route discovery: discovering the page's links
 * at load patches the router's routes, which redraws the whole page and so hydrates every part
 * still waiting to load (decision 026). A link's route is found when it is opened instead.
 *
 * Why not <Link>: each one runs about ten router hooks on the server and again in the phone's
 * hydration, for what one delegated handler does for all of them. The header, footer and home
 * page draw about a hundred; they were a quarter of the memory a page render allocates
 * (docs/decisions/018-plain-links-one-click-handler.md). With no <Link> left, the router's link
 * components are not in the browser's script at all.
 */
export function SiteLink({
  to,
  keepScroll = false,
  children,
  ...props
}: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href"> & {
  to: string;
  /** Opening it keeps the window where it is (a panel beside a list), as <Link preventScrollReset>. */
  keepScroll?: boolean;
}) {
  return (
    <a {...props} href={to} data-site-link="" data-keep-scroll={keepScroll ? "" : undefined}>
      {children}
    </a>
  );
}

/** Product cards' title links are opened the same way. */
export const CARD_LINK_CLASS = "product-card__link";
const CLIENT_SIDE_LINKS = `a[data-site-link], a.${CARD_LINK_CLASS}`;

/**
 * The page's one handler for `SiteLink`s and cards: a plain left click (or Enter) on one navigates
 * client-side. It listens on the document, after React's own handlers, so a click a component
 * already handled (`preventDefault`) is left alone.
 */
export function useSiteLinkNavigation(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (!isPlainClick(event)) return;
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>(CLIENT_SIDE_LINKS) : null;
      const href = link?.getAttribute("href");
      if (!link || !href || !isStorePath(href) || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
      event.preventDefault();
      // As <Link>: opening the page already shown replaces its history entry instead of adding one.
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      navigate(href, { replace: href === here, preventScrollReset: link.hasAttribute("data-keep-scroll") });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
}

/** A left click with no key held that no handler has taken: the browser would open the link in this window. */
export function isPlainClick(
  event: Pick<MouseEvent, "defaultPrevented" | "button" | "metaKey" | "ctrlKey" | "shiftKey" | "altKey">,
): boolean {
  return !(event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey);
}

/** A path on this site ("/cart"), not another origin ("//cdn…", "https://…"). */
export function isStorePath(href: string): boolean {
  return href.startsWith("/") && !href.startsWith("//");
}
