import { SiteLink } from "~/components/shared";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { newsletterLinkState, unsubscribeWithToken } from "~/mailing-list/subscribe.server";
import { readForm } from "~/utils/forms.server";
import type { RouteHandle } from "~/root";

export const handle: RouteHandle = { personal: true, indexing: "noindex" };

export const meta: MetaFunction = () => [{ title: "Unsubscribe" }];

export const UNSUBSCRIBED_MESSAGE = "You are unsubscribed. We will not send newsletter emails to this address again.";
const INVALID_LINK =
  "This unsubscribe link is not valid. Please use the link from one of our emails, or contact us and we will remove you.";

/**
 * /newsletter/unsubscribe?token=…, the link in every newsletter mail and in
 * its List-Unsubscribe header. A GET only shows the page with its button (mail
 * scanners open links); a POST unsubscribes: the button's, or a mail
 * program's one-click POST (`List-Unsubscribe=One-Click`, RFC 8058) to the
 * same URL, the token being in the address.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const state = newsletterLinkState(context.store.sessionSecret, "unsubscribe", token);
  return data({ token: state === "valid" ? token : "", valid: state === "valid" }, { status: state === "valid" ? 200 : 400 });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request, context.store.config);
  const { db, sessionSecret } = context.store;
  const token = form.token ?? new URL(request.url).searchParams.get("token");
  const outcome = await unsubscribeWithToken(db, sessionSecret, token);
  return data({ outcome }, { status: outcome === "unsubscribed" ? 200 : 400 });
}

export default function NewsletterUnsubscribe() {
  const { token, valid } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="container content-page">
      <h1>Unsubscribe</h1>
      {result ? (
        <p
          className={result.outcome === "unsubscribed" ? "form-success" : "notice notice--error"}
          role={result.outcome === "unsubscribed" ? "status" : "alert"}
          data-testid="newsletter-outcome"
        >
          {result.outcome === "unsubscribed" ? UNSUBSCRIBED_MESSAGE : INVALID_LINK}
        </p>
      ) : valid ? (
        <Form discover="none" method="post" className="stacked-form">
          <p>Stop all newsletter emails to this address?</p>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className="button button--primary">
            Unsubscribe
          </button>
        </Form>
      ) : (
        <p className="notice notice--error" role="alert" data-testid="newsletter-outcome">
          {INVALID_LINK}
        </p>
      )}
      <p>
        <SiteLink to="/">Back to the store</SiteLink>
      </p>
    </div>
  );
}
