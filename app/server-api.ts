/**
 * The server code that page routes use in their loaders, actions and headers, re-exported from one
 * plain module. The browser build drops a route's loader, so nothing imported from here is used
 * there and esbuild drops this module with everything behind it. A direct `import … from "~/x.server"`
 * in a route module is not dropped: the compiler puts an empty stand-in module in its place, and a
 * stand-in several routes import becomes a script file of its own on every page that shows them.
 *
 * Only `.server` modules (and `@remix-run/node`) belong here, so whatever is re-exported stays an
 * empty stand-in in the browser even if a component imported it by mistake. The runtime
 * (`~/runtime.server`) is imported where it is used.
 */
export { data, redirect } from "@remix-run/node";
export * from "~/cart/cart-actions.server";
export * from "~/cart/cart-cookie.server";
export * from "~/cart/cart-view.server";
export * from "~/catalog/cached-queries.server";
export * from "~/catalog/card-facts.server";
export * from "~/catalog/descriptions.server";
export * from "~/catalog/product-page.server";
export * from "~/catalog/queries.server";
export * from "~/checkout/checkout.server";
export * from "~/checkout/checkout-lines.server";
export * from "~/checkout/customer.server";
export * from "~/checkout/details-cookie.server";
export * from "~/checkout/single-checkout.server";
export * from "~/checkout/suggestions.server";
export * from "~/config.server";
export * from "~/public-config.server";
export * from "~/contact/contact.server";
export * from "~/guides/fits.server";
export * from "~/orders/last-order-cookie.server";
export * from "~/orders/order-email.server";
export * from "~/orders/orders.server";
export * from "~/payments/cancel-payment.server";
export * from "~/payments/confirm-payment.server";
export * from "~/returns/request-page.server";
export * from "~/security/rate-limit.server";
export * from "~/services/payments/affirm.server";
export * from "~/services/payments/index.server";
export * from "~/services/text/index.server";
export * from "~/stock/storefront-stock.server";
export * from "~/tax/tax-note.server";
export * from "~/utils/cache-control.server";
export * from "~/utils/forms.server";
export { logError } from "~/observability/logger.server";
