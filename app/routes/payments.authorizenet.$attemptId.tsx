import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { hostedFormPage } from "~/payments/authorize-net-form.server";
import { paymentCancelPath } from "~/payments/paths";
import { formatUsd, useHydrated, SiteLink } from "~/components/shared";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "noindex" };

const AuthorizeNetPopup = lazy(() => import("~/components/checkout/payments/AuthorizeNetPopup"));

export const meta: MetaFunction = () => [{ title: "Secure card payment" }];

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const page = await hostedFormPage(context.store.db, context.store.config, params.attemptId ?? "", token);
  if (page.kind === "done") throw redirect(page.returnUrl);
  if (page.kind === "invalid") return data(page, { status: 404 });
  return { ...page, cancelUrl: cancelUrlBeside(page.returnUrl) };
}

/** The attempt's cancel URL, where the hosted form's Cancel goes without script: the return URL names the same checkout and attempt. */
function cancelUrlBeside(returnUrl: string): string {
  const url = new URL(returnUrl);
  return new URL(paymentCancelPath(url.searchParams.get("checkout_token") ?? "", url.searchParams.get("attempt") ?? ""), url).href;
}

/**
 * The step between our checkout and Authorize.Net's hosted payment form: a
 * form posting the token to Authorize.Net (works without script); with script
 * the form opens in a popup over this page instead, and cancelling or closing
 * it cancels the payment as the form's Cancel does without script.
 */
export default function AuthorizeNetPaymentPage() {
  const page = useLoaderData<typeof loader>();
  const hydrated = useHydrated();

  if (page.kind !== "form") {
    return (
      <div className="container test-payment">
        <h1>Payment not available</h1>
        <p className="notice notice--error" role="alert">
          Payment failed: This payment link has expired or is incomplete.
        </p>
        <SiteLink className="button button--primary" to={page.checkoutPath ?? "/cart"}>
          Back to checkout
        </SiteLink>
      </div>
    );
  }

  return (
    <div className="container test-payment">
      <h1>Pay {formatUsd(page.amountCents)} by card</h1>
      <p>You enter your card on Authorize.Net&apos;s secure payment form. Your card details never reach our store.</p>
      <form method="post" action={page.hostedUrl} className="test-payment__actions">
        <input type="hidden" name="token" value={page.token} />
        <button type="submit" className="button button--primary">
          Continue to secure payment form
        </button>
      </form>
      <p>
        <SiteLink to={page.checkoutPath}>Back to checkout</SiteLink>
      </p>
      {hydrated ? (
        <Suspense fallback={null}>
          <AuthorizeNetPopup token={page.token} hostedUrl={page.hostedUrl} returnUrl={page.returnUrl} cancelUrl={page.cancelUrl} />
        </Suspense>
      ) : null}
    </div>
  );
}
