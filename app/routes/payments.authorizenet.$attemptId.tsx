import { data, redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { lazy, Suspense, useState } from "react";
import { hostedFormPage } from "~/payments/authorize-net-form.server";
import { formatUsd, useHydrated, SiteLink } from "~/components/shared";

const AuthorizeNetPopup = lazy(() => import("~/components/checkout/payments/AuthorizeNetPopup"));

export const meta: MetaFunction = () => [{ title: "Secure card payment" }, { name: "robots", content: "noindex" }];

export async function loader({ params, request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const page = await hostedFormPage(context.store.db, context.store.config, params.attemptId ?? "", token);
  if (page.kind === "done") throw redirect(page.returnUrl);
  if (page.kind === "invalid") return data(page, { status: 404 });
  return page;
}

/**
 * The step between our checkout and Authorize.Net's hosted payment form: a
 * form posting the token to Authorize.Net (works without script); with script
 * the form opens in a popup over this page instead.
 */
export default function AuthorizeNetPaymentPage() {
  const page = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const [popupOpen, setPopupOpen] = useState(true);

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
        {hydrated && !popupOpen ? (
          <button type="button" className="button" onClick={() => setPopupOpen(true)}>
            Open the payment form on this page
          </button>
        ) : null}
      </form>
      <p>
        <SiteLink to={page.checkoutPath}>Back to checkout</SiteLink>
      </p>
      {hydrated && popupOpen ? (
        <Suspense fallback={null}>
          <AuthorizeNetPopup token={page.token} hostedUrl={page.hostedUrl} returnUrl={page.returnUrl} onClose={() => setPopupOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
