import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { SiteLink } from "~/components/shared";
import { NEWSLETTER_MESSAGES } from "~/mailing-list/newsletter";
import { confirmSubscription, newsletterLinkState, type ConfirmOutcome } from "~/mailing-list/subscribe.server";
import { readForm } from "~/utils/forms.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "noindex" };

export const meta: MetaFunction = () => [{ title: "Confirm your subscription" }];

/**
 * /newsletter/confirm?token=…, the link of the double opt-in email. Opening
 * it changes nothing (mail scanners open links too): the page asks the owner
 * to press Confirm, which POSTs the signed token.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const state = newsletterLinkState(context.store.sessionSecret, "confirm", token);
  return data({ token: state === "valid" ? token : "", state }, { status: state === "valid" ? 200 : 400 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context.store.config);
  const { db, sessionSecret } = context.store;
  const outcome = await confirmSubscription(db, sessionSecret, form.token ?? new URL(request.url).searchParams.get("token"));
  const ok = outcome === "confirmed" || outcome === "already-confirmed";
  return data({ outcome }, { status: ok ? 200 : 400 });
}

const LINK_PROBLEM: Record<"expired" | "invalid", string> = {
  expired: "This confirmation link has expired. Sign up again with the form at the bottom of any page and we will send you a new one.",
  invalid: "This confirmation link is not valid. Please use the link from the newest email we sent you, or sign up again.",
};

function outcomeMessage(outcome: ConfirmOutcome): string {
  switch (outcome) {
    case "confirmed":
      return NEWSLETTER_MESSAGES.subscribed.footer;
    case "already-confirmed":
      return "Your subscription is already confirmed.";
    case "expired":
    case "invalid":
      return LINK_PROBLEM[outcome];
  }
}

export default function NewsletterConfirm() {
  const { token, state } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="container content-page">
      <h1>Confirm your subscription</h1>
      {result ? (
        <p
          className={result.outcome === "confirmed" || result.outcome === "already-confirmed" ? "form-success" : "notice notice--error"}
          role={result.outcome === "confirmed" || result.outcome === "already-confirmed" ? "status" : "alert"}
          data-testid="newsletter-outcome"
        >
          {outcomeMessage(result.outcome)}
        </p>
      ) : state === "valid" ? (
        <Form discover="none" method="post" className="stacked-form">
          <p>Press the button to join our mailing list for deals, new arrivals and grilling tips. You can unsubscribe at any time.</p>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="button button--primary">
            Confirm subscription
          </button>
        </Form>
      ) : (
        <p className="notice notice--error" role="alert" data-testid="newsletter-outcome">
          {LINK_PROBLEM[state]}
        </p>
      )}
      <p>
        <SiteLink to="/">Back to the store</SiteLink>
      </p>
    </div>
  );
}
