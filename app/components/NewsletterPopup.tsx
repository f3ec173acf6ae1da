import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type MouseEvent } from "react";
import { NewsletterEmailField } from "./NewsletterEmailField";
import {
  currentPathWithoutNewsletterFlags,
  NEWSLETTER_ANCHOR,
  newsletterResultFromSearch,
  NEWSLETTER_CONFIRM_HINT,
  PROMO_CODE,
  type NewsletterResult,
} from "~/mailing-list/newsletter";

export const POPUP_DELAY_MS = 3000;
const DISMISSED_KEY = "newsletter-popup-dismissed";

function wasDismissed(): boolean {
  try {
    return window.localStorage.getItem(DISMISSED_KEY) !== null;
  } catch {
    return false;
  }
}

function rememberDismissal() {
  try {
    window.localStorage.setItem(DISMISSED_KEY, new Date().toISOString());
  } catch {
    // Storage blocked (private mode, policy): the popup may show again, nothing breaks.
  }
}

/**
 * The home page's newsletter popup: a modal dialog that opens 3 s after the
 * page runs script, unless it was dismissed before (localStorage). Closes
 * with its button, Escape or a click outside; focus moves into it and back.
 * Without script it never shows: the footer form covers signing up.
 */
export function NewsletterPopup({ delayMs = POPUP_DELAY_MS }: { delayMs?: number }) {
  const location = useLocation();
  const fetcher = useFetcher<NewsletterResult>({ key: "newsletter-popup" });
  const fromRedirect = newsletterResultFromSearch(location.search, "popup");
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const thanksRef = useRef<HTMLHeadingElement>(null);
  const returnFocusRef = useRef<HTMLElement | null>(null);

  const result = fetcher.data ?? fromRedirect;
  const subscribed = result?.status === "subscribed";
  const isError = result !== null && result.status !== "subscribed";
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    // A form post that came back without script (e.g. script failed mid-way) shows its result at once.
    if (fromRedirect) {
      setOpen(true);
      return;
    }
    if (wasDismissed()) return;
    const timer = window.setTimeout(() => setOpen(true), delayMs);
    return () => window.clearTimeout(timer);
    // Only on arrival: navigating within the site must not re-arm it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!open || !dialog || dialog.open) return;
    returnFocusRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
    (subscribed ? thanksRef.current : inputRef.current)?.focus();
  }, [open, subscribed]);

  useEffect(() => {
    if (subscribed) {
      rememberDismissal();
      thanksRef.current?.focus();
    } else if (isError && fetcher.state === "idle") {
      inputRef.current?.focus();
    }
  }, [subscribed, isError, fetcher.state]);

  /** Runs however the dialog closed (button, Escape, backdrop, the browser itself). */
  const finish = useCallback(() => {
    rememberDismissal();
    setOpen(false);
    const back = returnFocusRef.current;
    returnFocusRef.current = null;
    if (back && document.contains(back)) back.focus();
  }, []);

  const close = useCallback(() => {
    const dialog = dialogRef.current;
    if (dialog?.open && typeof dialog.close === "function")
      dialog.close(); // fires "close", then finish()
    else finish();
  }, [finish]);

  const onBackdropClick = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget) close();
  };

  if (!open) return null;

  const anchor = NEWSLETTER_ANCHOR.popup;
  const headingId = `${anchor}-heading`;
  const inputId = `${anchor}-email`;
  const errorId = `${anchor}-error`;
  return (
    // A click on the backdrop closes it; keyboards close it with Escape (onCancel) or the close button.
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialogRef}
      id={anchor}
      className="newsletter-popup"
      aria-labelledby={headingId}
      onCancel={(event) => {
        event.preventDefault();
        close();
      }}
      onClose={finish}
      onClick={onBackdropClick}
    >
      <div className="newsletter-popup__body">
        <button type="button" className="newsletter-popup__close" onClick={close}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">Close</span>
        </button>
        {subscribed ? (
          <div className="newsletter-popup__thanks">
            <h2 id={headingId} ref={thanksRef} tabIndex={-1}>
              {result.message}
            </h2>
            <p data-testid="newsletter-confirm-hint">{NEWSLETTER_CONFIRM_HINT}</p>
            <p>Here is 10% off your first purchase. Enter this code at checkout:</p>
            <p className="promo-code">
              <strong>{PROMO_CODE}</strong>
            </p>
            <p className="newsletter-popup__actions">
              <Link className="button button--primary" to="/custom-product" onClick={close}>
                Shop LOVE RUB
              </Link>
              <button type="button" className="button" onClick={close}>
                Keep browsing
              </button>
            </p>
          </div>
        ) : (
          <>
            <h2 id={headingId}>Get 10% off your first purchase</h2>
            <p>Join our mailing list for deals, new arrivals and grilling tips, and we will send you a welcome code.</p>
            <fetcher.Form method="post" action="/newsletter" noValidate className="newsletter__form">
              <input type="hidden" name="source" value="popup" />
              <input type="hidden" name="mode" value="fetch" />
              <input type="hidden" name="redirectTo" value={currentPathWithoutNewsletterFlags(location.pathname, location.search)} />
              <NewsletterEmailField
                inputId={inputId}
                errorId={errorId}
                inputRef={inputRef}
                defaultValue={result?.email ?? ""}
                error={isError ? result.message : null}
                busy={busy}
              />
            </fetcher.Form>
            <button type="button" className="newsletter-popup__decline" onClick={close}>
              No thanks
            </button>
          </>
        )}
      </div>
    </dialog>
  );
}
