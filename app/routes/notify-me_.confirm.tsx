import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { SiteLink } from "~/components/shared";
import { confirmStockAlert, stockAlertLink, type StockAlertConfirmOutcome } from "~/stock/stock-alerts.server";
import { readForm } from "~/utils/forms.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "noindex" };

export const meta: MetaFunction = () => [{ title: "Confirm: email me when it is back in stock" }];

/**
 * /notify-me/confirm?token=…, the link of the "Notify me when available" confirmation email. Opening it
 * changes nothing (mail scanners open links too): the page asks the owner to press Confirm, which POSTs
 * the signed token. A bad, tampered or expired link is a 400 with its reason, and changes nothing.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { state, productTitle } = await stockAlertLink(context.store.db, context.store.sessionSecret, "confirm", token);
  return data({ token: state === "valid" ? token : "", state, productTitle }, { status: state === "valid" ? 200 : 400 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context.store.config);
  const outcome = await confirmStockAlert(
    context.store,
    context.store.sessionSecret,
    form.token ?? new URL(request.url).searchParams.get("token"),
  );
  return data({ outcome }, { status: isConfirmed(outcome) ? 200 : 400 });
}

const LINK_PROBLEM: Record<"expired" | "invalid", string> = {
  expired: "This confirmation link has expired. Ask again on the product's page and we will send you a new one.",
  invalid:
    "This confirmation link is not valid. Please use the link from the newest email we sent you, or ask again on the product's page.",
};

const isConfirmed = (outcome: StockAlertConfirmOutcome) => outcome === "confirmed" || outcome === "already-confirmed";

function outcomeMessage(outcome: StockAlertConfirmOutcome): string {
  switch (outcome) {
    case "confirmed":
      return "Thank you: we will email you once when it is back in stock.";
    case "already-confirmed":
      return "Your request is already confirmed.";
    case "expired":
    case "invalid":
      return LINK_PROBLEM[outcome];
  }
}

export default function NotifyMeConfirm() {
  const { token, state, productTitle } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="container content-page">
      <h1>Email me when it is back in stock</h1>
      {result ? (
        <p
          className={isConfirmed(result.outcome) ? "form-success" : "notice notice--error"}
          role={isConfirmed(result.outcome) ? "status" : "alert"}
          data-testid="notify-me-outcome"
        >
          {outcomeMessage(result.outcome)}
        </p>
      ) : state === "valid" ? (
        <Form discover="none" method="post" className="stacked-form">
          <p>
            Press the button and we will email you once when {productTitle ? <strong>{productTitle}</strong> : "this product"} is back in
            stock. Every email has an unsubscribe link.
          </p>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="button button--primary">
            Confirm
          </button>
        </Form>
      ) : (
        <p className="notice notice--error" role="alert" data-testid="notify-me-outcome">
          {LINK_PROBLEM[state]}
        </p>
      )}
      <p>
        <SiteLink to="/">Back to the store</SiteLink>
      </p>
    </div>
  );
}
