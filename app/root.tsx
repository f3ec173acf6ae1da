import { readCartCookie, mirroredCart, priceCartForDisplay, publicConfig, testPaymentsEnabled, type PublicConfig } from "~/server-api";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
  useRouteLoaderData,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { SiteFooter } from "~/components/layout/SiteFooter";
import { SiteHeader } from "~/components/layout/SiteHeader";
import { CartMirror } from "~/cart/CartMirror";
import { TestPaymentsBanner } from "~/components/layout/TestPaymentsBanner";
import { PageScripts } from "~/components/layout/page-scripts";
import { useNonce } from "~/http/nonce";
import { robotsMetaContent, type Indexing } from "~/utils/indexing";
import { cssBundleHref } from "@remix-run/css-bundle";
import { useSiteLinkNavigation } from "~/components/shared";
import { ChatButton, ErrorPage } from "~/components/layout/on-demand";
import { fallbackStoreIdentity, StoreIdentityScript } from "~/components/layout/store-identity";
// One render-blocking style sheet: app.css @imports content.css (esbuild inlines it at build time).
import appStyles from "~/styles/app.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStyles },
  // Only CSS imported for its side effects lands in the CSS bundle; swiper's comes with swiper (carousel/load-swiper.ts).
  ...(cssBundleHref ? [{ rel: "stylesheet", href: cssBundleHref }] : []),
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: "Grills, Outdoor Kitchens & Outdoor Heating" },
  { name: "description", content: "Grills, outdoor kitchens, patio heating and lounge furniture, shipped free over $49." },
];

export async function loader({ request, context: { store } }: LoaderFunctionArgs) {
  const stored = await readCartCookie(store, request);
  const cart = await priceCartForDisplay(store.db, stored.lines);
  return {
    store: publicConfig(store.config),
    cart: mirroredCart(cart),
    cartKnown: stored.present,
    cartQuantity: cart.totalQuantity,
    testPayments: testPaymentsEnabled(store.config),
  };
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>;

/** Pages that show or change the cart: visiting one refreshes the header's cart count. */
const CART_PAGES = /^\/(cart|checkout|checkout-authorized|single-product-checkout|custom-product-checkout|checkout-confirmation)(\/|$)/;

/**
 * The root loader prices the cart, so it runs again only when the cart may
 * have changed: after any form post or fetcher action, on a page that shows
 * the cart, and when a page is reloaded or revalidated as it is. Plain
 * browsing between catalog pages keeps the data it has.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) => {
  if (formMethod && formMethod.toUpperCase() !== "GET") return true;
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  return CART_PAGES.test(nextUrl.pathname);
};

/** What a route module says about itself in its `handle` export. */
export type RouteHandle = {
  /** Rendered without the store's header and footer. */
  bareLayout?: boolean;
  /**
   * Shows one shopper's own data (or the staff's view of orders), as do the routes under it: no cache may keep
   * any of their answers (utils/cache-control.server.ts).
   */
  personal?: boolean;
  /**
   * How search engines treat the page, as do the routes under it unless they say otherwise (utils/indexing.ts):
   * root renders its `<meta name="robots">`, and robots.txt disallows its URL when it is one of the "private" ones.
   */
  indexing?: Indexing;
};

function useBareLayout(): boolean {
  return useMatches().some((match) => (match.handle as RouteHandle | undefined)?.bareLayout);
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const robots = robotsMetaContent(useMatches());
  useSiteLinkNavigation();
  return (
    <html lang="en-US">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {/* The page's robots tag, when its route (or one around it) declares an indexing. */}
        {robots ? <meta name="robots" content={robots} /> : null}
        <Links />
        <noscript>
          <style>{".js-only{display:none!important}"}</style>
        </noscript>
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <PageScripts />
      </body>
    </html>
  );
}

export default function App() {
  const { store, cart, cartKnown, cartQuantity, testPayments } = useLoaderData<typeof loader>();
  const bare = useBareLayout();
  return (
    <>
      {testPayments ? <TestPaymentsBanner /> : null}
      <CartMirror cart={cart} serverHasCart={cartKnown} />
      {bare ? <Outlet /> : <StoreLayout store={store} cartQuantity={cartQuantity} />}
    </>
  );
}

function StoreLayout({ store, cartQuantity, children = <Outlet /> }: { store: PublicConfig; cartQuantity: number; children?: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader store={store} cartQuantity={cartQuantity} />
      <main id="main" className="page">
        {children}
      </main>
      <SiteFooter store={store} />
      <ChatButton />
    </>
  );
}

/**
 * Every error no route boundary takes: the store's error page inside the
 * store's layout. Root's data is missing when the error came from root's own
 * loader or from an action root answers for (a POST to /, a 405); the layout
 * then uses the store details registered at start (store-identity.tsx).
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRouteLoaderData<typeof loader>("root");
  const store = root?.store ?? fallbackStoreIdentity();
  const page = <ErrorPage error={error} storePhone={store?.storePhone} />;
  if (!store) {
    return (
      <main id="main" className="page">
        {page}
      </main>
    );
  }
  return (
    <>
      {root ? null : <StoreIdentityScript identity={store} />}
      <StoreLayout store={store} cartQuantity={root?.cartQuantity ?? 0}>
        {page}
      </StoreLayout>
    </>
  );
}
