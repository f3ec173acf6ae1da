import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { SiteLink } from "~/components/shared";
import { stockAlertLink, unsubscribeStockAlert } from "~/stock/stock-alerts.server";
import { readForm } from "~/utils/forms.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "noindex" };

export const meta: MetaFunction = () => [{ title: "Unsubscribe" }];

export const STOCK_ALERT_UNSUBSCRIBED_MESSAGE = "You are unsubscribed. We will not email this address about this product.";
const INVALID_LINK =
  "This unsubscribe link is not valid. Please use the link from one of our emails, or contact us and we will remove you.";

/**
 * /notify-me/unsubscribe?token=…, the link in every "Notify me" email and in its List-Unsubscribe header.
 * A GET only shows the page with its button (mail scanners open links); a POST unsubscribes: the
 * button's, or a mail program's one-click POST (`List-Unsubscribe=One-Click`, RFC 8058) to the same URL,
 * the token being in the address. The link never expires; a bad or tampered one is a 400 and changes nothing.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { state, productTitle } = await stockAlertLink(context.store.db, context.store.sessionSecret, "unsubscribe", token);
  const valid = state === "valid";
  return data({ token: valid ? token : "", valid, productTitle }, { status: valid ? 200 : 400 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context.store.config);
  const { db, sessionSecret } = context.store;
  const outcome = await unsubscribeStockAlert(db, sessionSecret, form.token ?? new URL(request.url).searchParams.get("token"));
  return data({ outcome }, { status: outcome === "unsubscribed" ? 200 : 400 });
}

export default function NotifyMeUnsubscribe() {
  const { token, valid, productTitle } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="container content-page">
      <h1>Unsubscribe</h1>
      {result ? (
        <p
          className={result.outcome === "unsubscribed" ? "form-success" : "notice notice--error"}
          role={result.outcome === "unsubscribed" ? "status" : "alert"}
          data-testid="notify-me-outcome"
        >
          {result.outcome === "unsubscribed" ? STOCK_ALERT_UNSUBSCRIBED_MESSAGE : INVALID_LINK}
        </p>
      ) : valid ? (
        <Form discover="none" method="post" className="stacked-form">
          <p>Stop the email about {productTitle ? <strong>{productTitle}</strong> : "this product"} to this address?</p>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="button button--primary">
            Unsubscribe
          </button>
        </Form>
      ) : (
        <p className="notice notice--error" role="alert" data-testid="notify-me-outcome">
          {INVALID_LINK}
        </p>
      )}
      <p>
        <SiteLink to="/">Back to the store</SiteLink>
      </p>
    </div>
  );
}
