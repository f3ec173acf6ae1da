import { isRouteErrorResponse } from "@remix-run/react";
import type { ReactNode } from "react";
import { telHref, SiteLink } from "~/components/shared";
import { useRequestId } from "~/http/request-id";

/**
 * The store's one error page: a title and a message per HTTP status, and a
 * way back to the shop. Root's error boundary draws it inside the store's
 * layout; routes with an error boundary of their own draw it in their place,
 * with their own words for a status where they have better ones.
 */

export interface ErrorView {
  /** The HTTP status, or null for an exception (a rendering failure). */
  status: number | null;
  title: string;
  message: string;
}

export type ErrorTexts = Partial<Record<number, { title: string; message: string }>>;

/** The spec's words for an unexpected rendering failure. */
export const UNEXPECTED_ERROR_TITLE = "Unexpected Application Error!";

const STATUS_TEXTS: Record<number, { title: string; message: string }> = {
  400: {
    title: "We couldn't use that request",
    message: "Something in that request was not right, so nothing was changed. Please go back and try again.",
  },
  404: {
    title: "Page not found",
    message: "We couldn't find the page you were looking for. It may have moved, or the address may be mistyped.",
  },
  405: {
    title: "This page can't do that",
    message: "This address does not accept that kind of request, so nothing was changed. Please use the store's pages and forms.",
  },
  413: {
    title: "That was too much to send",
    message: "The form was larger than we accept, so nothing was saved. Please shorten it and try again.",
  },
  415: {
    title: "That form could not be read",
    message: "This address accepts only the web form on its page. Please fill in the form and send it again.",
  },
  429: {
    title: "Too many requests",
    message: "You've sent a lot of requests in a short time. Please wait a minute and try again.",
  },
  503: {
    title: "We'll be right back",
    message: "The store is briefly unavailable. Please try again in a minute, or give us a call.",
  },
};

const SERVER_PROBLEM = "Something went wrong on our side. Please try again in a moment.";

/** Statuses whose body is a message written for people (forms.server.ts writes them). */
const READABLE_BODY_STATUSES = new Set([400, 413, 415]);

export function describeError(error: unknown, texts: ErrorTexts = {}): ErrorView {
  if (!isRouteErrorResponse(error)) return { status: null, title: UNEXPECTED_ERROR_TITLE, message: SERVER_PROBLEM };
  const { status } = error;
  const known = texts[status] ?? STATUS_TEXTS[status];
  const body = typeof error.data === "string" && error.data.length <= 300 ? error.data : null;
  if (known) return { status, ...known, message: READABLE_BODY_STATUSES.has(status) && body ? body : known.message };
  if (status >= 500) return { status, title: "Something went wrong", message: SERVER_PROBLEM };
  return { status, ...STATUS_TEXTS[400] };
}

export function ErrorPage({
  error,
  texts,
  storePhone,
  actions,
}: {
  error: unknown;
  texts?: ErrorTexts;
  storePhone?: string | null;
  /** Replaces the links home and to the shop. */
  actions?: ReactNode;
}) {
  const view = describeError(error, texts);
  // A server error (a 5xx, or an exception) names its request, to match a shopper's call to the logs.
  const requestId = useRequestId();
  const reference = view.status === null || view.status >= 500 ? requestId : undefined;
  return (
    <div className="container error-screen" data-status={view.status ?? "exception"}>
      <h1>{view.title}</h1>
      <p>{view.message}</p>
      {reference ? (
        <p className="error-screen__reference">
          Reference: <code data-request-id={reference}>{reference}</code>
          <br />
          If you contact us about this, quote this reference.
        </p>
      ) : null}
      <p className="error-screen__actions">
        {actions ?? (
          <>
            <SiteLink className="button button--primary" to="/">
              Back to the home page
            </SiteLink>
            <SiteLink className="button" to="/products/all/all">
              Browse all products
            </SiteLink>
          </>
        )}
      </p>
      {storePhone ? (
        <p>
          Need help? Call us at <a href={telHref(storePhone)}>{storePhone}</a>.
        </p>
      ) : null}
    </div>
  );
}
