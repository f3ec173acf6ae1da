import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
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
import { readCartCookie } from "~/cart/cart-cookie.server";
import { mirroredCart, priceCart } from "~/cart/cart-view.server";
import { getConfig, publicConfig, type PublicConfig } from "~/config.server";
import { getDb } from "~/runtime.server";
import { cssBundleHref } from "@remix-run/css-bundle";
import { ChatButton } from "~/components/ChatButton";
import appStyles from "~/styles/app.css";
import contentStyles from "~/styles/content.css";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStyles },
  // The CSS bundle holds swiper's styles, imported by the Carousel component.
  ...(cssBundleHref ? [{ rel: "stylesheet", href: cssBundleHref }] : []),
  { rel: "stylesheet", href: contentStyles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: "Grills, Outdoor Kitchens & Outdoor Heating" },
  { name: "description", content: "Grills, outdoor kitchens, patio heating and lounge furniture, shipped free over $49." },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const stored = await readCartCookie(request);
  const cart = await priceCart(await getDb(), stored.lines);
  return {
    store: publicConfig(getConfig()),
    cart: mirroredCart(cart),
    cartKnown: stored.present,
    cartQuantity: cart.totalQuantity,
  };
}

export type RootLoaderData = Awaited<ReturnType<typeof loader>>;

/** Pages that show or change the cart: visiting one refreshes the header's cart count. */
const CART_PAGES = /^\/(cart|checkout|single-product-checkout|custom-product-checkout|checkout-confirmation)(\/|$)/;

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

/** Routes that export `handle = { bareLayout: true }` render without header and footer. */
export type RouteHandle = { bareLayout?: boolean };

function useBareLayout(): boolean {
  return useMatches().some((match) => (match.handle as RouteHandle | undefined)?.bareLayout);
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en-US">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <noscript>
          <style>{".js-only{display:none!important}"}</style>
        </noscript>
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const { store, cart, cartKnown, cartQuantity } = useLoaderData<typeof loader>();
  const bare = useBareLayout();
  return (
    <>
      <CartMirror cart={cart} serverHasCart={cartKnown} />
      {bare ? <Outlet /> : <StoreLayout store={store} cartQuantity={cartQuantity} />}
    </>
  );
}

function StoreLayout({ store, cartQuantity }: { store: PublicConfig; cartQuantity: number }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader store={store} cartQuantity={cartQuantity} />
      <main id="main" className="page">
        <Outlet />
      </main>
      <SiteFooter store={store} />
      <ChatButton />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <ErrorScreen
      title={notFound ? "Page not found" : "Unexpected Application Error!"}
      message={
        notFound
          ? "We couldn't find the page you were looking for. It may have moved, or the address may be mistyped."
          : "Something went wrong on our side. Please try again in a moment."
      }
    />
  );
}

function ErrorScreen({ title, message }: { title: string; message: string }) {
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <main id="main" className="page error-screen">
      <h1>{title}</h1>
      <p>{message}</p>
      <p className="error-screen__actions">
        <Link className="button button--primary" to="/">
          Back to the home page
        </Link>
        <Link className="button" to="/products/all/all">
          Browse all products
        </Link>
      </p>
      {root ? (
        <p>
          Need help? Call us at <a href={`tel:${root.store.storePhone.replace(/\D/g, "")}`}>{root.store.storePhone}</a>.
        </p>
      ) : null}
    </main>
  );
}
