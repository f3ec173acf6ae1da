import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/components/shared";
import {
  currentPathWithoutNewsletterFlags,
  NEWSLETTER_ANCHOR,
  NEWSLETTER_CONFIRM_HINT,
  newsletterResultFromSearch,
  type NewsletterResult,
} from "~/mailing-list/newsletter";
import { NewsletterEmailField } from "./NewsletterEmailField";

/**
 * The footer's mailing-list form. Without script it posts to /newsletter and
 * comes back here with the result in the query; with script a fetcher answers
 * in place. The field clears after a successful submit.
 */
export function NewsletterSignup() {
  const fetcher = useFetcher<NewsletterResult>({ key: "newsletter-footer" });
  const location = useLocation();
  const hydrated = useHydrated();
  const inputRef = useRef<HTMLInputElement>(null);
  // The footer outlives navigation: an answer belongs to the page it was given on.
  const [submittedOn, setSubmittedOn] = useState<string | null>(null);

  const fromRedirect = newsletterResultFromSearch(location.search, "footer");
  const fetched = submittedOn === location.key ? fetcher.data : undefined;
  const result = fetched ?? fromRedirect;
  const busy = fetcher.state !== "idle";
  const isError = result !== null && result.status !== "subscribed";
  const isSuccess = result?.status === "subscribed" && !busy;

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || !inputRef.current) return;
    if (fetcher.data.status === "subscribed") inputRef.current.value = "";
    else inputRef.current.focus();
  }, [fetcher.state, fetcher.data]);

  const anchor = NEWSLETTER_ANCHOR.footer;
  const inputId = `${anchor}-email`;
  const errorId = `${anchor}-error`;
  return (
    <section className="newsletter" id={anchor} aria-labelledby={`${anchor}-heading`}>
      <h2 id={`${anchor}-heading`} className="site-footer__heading">
        Join our mailing list
      </h2>
      <p className="newsletter__intro">Deals, new arrivals and grilling tips. Unsubscribe at any time.</p>
      <fetcher.Form
        method="post"
        action="/newsletter"
        noValidate
        className="newsletter__form"
        onSubmit={() => setSubmittedOn(location.key)}
      >
        <input type="hidden" name="source" value="footer" />
        <input type="hidden" name="redirectTo" value={currentPathWithoutNewsletterFlags(location.pathname, location.search)} />
        {hydrated ? <input type="hidden" name="mode" value="fetch" /> : null}
        <NewsletterEmailField
          inputId={inputId}
          errorId={errorId}
          inputRef={inputRef}
          defaultValue={fromRedirect?.email ?? ""}
          error={isError ? result.message : null}
          busy={busy}
        />
        <p className="form-success" role="status">
          {isSuccess ? (
            <>
              {result.message}
              <br />
              <span data-testid="newsletter-confirm-hint">{NEWSLETTER_CONFIRM_HINT}</span>
            </>
          ) : (
            ""
          )}
        </p>
      </fetcher.Form>
    </section>
  );
}
