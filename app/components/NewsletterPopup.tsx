import { useFetcher, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from "react";
import { SiteLink } from "~/components/shared";
import {
  currentPathWithoutNewsletterFlags,
  NEWSLETTER_ANCHOR,
  newsletterResultFromSearch,
  NEWSLETTER_CONFIRM_HINT,
  PROMO_CODE,
  type NewsletterResult,
} from "~/mailing-list/newsletter";
import { NewsletterEmailField } from "./NewsletterEmailField";

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

/** A field the shopper may be typing in: the popup neither opens over it nor takes its focus. */
function isTypingField(element: Element | null): boolean {
  if (!(element instanceof HTMLElement)) return false;
  if (element.isContentEditable || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return (
    element instanceof HTMLInputElement &&
    !["button", "submit", "reset", "checkbox", "radio", "range", "color", "file", "image"].includes(element.type)
  );
}

/**
 * The home page's newsletter popup: a panel that opens 3 s after the page runs script, unless it
 * was dismissed before (localStorage). It respects a shopper who is busy: it is not modal and never
 * moves focus (a word typed in the search box stays there), it waits while a field of the page has
 * focus, and it steps aside while one does after it opened. At the bottom of the screen (a sheet on
 * phones), closed with its button or Escape, it stays closed. Without script it never shows: the
 * footer form covers signing up.
 */
export function NewsletterPopup({ delayMs = POPUP_DELAY_MS }: { delayMs?: number }) {
  const location = useLocation();
  const fetcher = useFetcher<NewsletterResult>({ key: "newsletter-popup" });
  const fromRedirect = newsletterResultFromSearch(location.search, "popup");
  const [due, setDue] = useState(false);
  const [closed, setClosed] = useState(false);
  const [typingElsewhere, setTypingElsewhere] = useState(false);
  const panelRef = useRef<HTMLDialogElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const thanksRef = useRef<HTMLHeadingElement>(null);
  const lastFocusOutside = useRef<HTMLElement | null>(null);

  const result = fetcher.data ?? fromRedirect;
  const subscribed = result?.status === "subscribed";
  const isError = result !== null && result.status !== "subscribed";
  const busy = fetcher.state !== "idle";

  useEffect(() => {
    // A form post that came back without script (e.g. script failed mid-way) shows its result at once.
    if (fromRedirect) {
      setDue(true);
      return;
    }
    if (wasDismissed()) return;
    const timer = window.setTimeout(() => setDue(true), delayMs);
    return () => window.clearTimeout(timer);
    // Only on arrival: navigating within the site must not re-arm it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const update = () => {
      const active = document.activeElement;
      const inside = Boolean(panelRef.current && active && panelRef.current.contains(active));
      if (!inside && active instanceof HTMLElement && active !== document.body) lastFocusOutside.current = active;
      setTypingElsewhere(!inside && isTypingField(active));
    };
    update();
    // focusout fires before focus lands on the next element: read the result once it has.
    const afterFocusMoves = () => window.setTimeout(update, 0);
    document.addEventListener("focusin", update);
    document.addEventListener("focusout", afterFocusMoves);
    return () => {
      document.removeEventListener("focusin", update);
      document.removeEventListener("focusout", afterFocusMoves);
    };
  }, []);

  useEffect(() => {
    if (subscribed) {
      rememberDismissal();
      thanksRef.current?.focus();
    } else if (isError && fetcher.state === "idle") {
      inputRef.current?.focus();
    }
  }, [subscribed, isError, fetcher.state]);

  const close = useCallback(() => {
    rememberDismissal();
    const panel = panelRef.current;
    // Focus inside the panel would be lost with it: give it back to where the shopper was before.
    if (panel && panel.contains(document.activeElement)) {
      const back = lastFocusOutside.current;
      if (back && document.contains(back)) back.focus();
      else (document.getElementById("main") ?? document.body).focus();
    }
    setClosed(true);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      close();
    }
  };

  if (!due || closed) return null;
  // While the shopper types in a field of the page, the panel waits (or steps aside) until they leave it.
  const open = !typingElsewhere || subscribed || isError;

  const anchor = NEWSLETTER_ANCHOR.popup;
  const headingId = `${anchor}-heading`;
  const inputId = `${anchor}-email`;
  const errorId = `${anchor}-error`;
  return (
    // Not modal: the page stays usable. Escape closes it when focus is inside; so does its button.
    <dialog ref={panelRef} id={anchor} className="newsletter-popup" aria-labelledby={headingId} open hidden={!open} onKeyDown={onKeyDown}>
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
              <SiteLink className="button button--primary" to="/custom-product" onClick={close}>
                Shop LOVE RUB
              </SiteLink>
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
