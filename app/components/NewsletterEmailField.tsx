import { NEWSLETTER_HONEYPOT_FIELD } from "~/mailing-list/newsletter";
import type { RefObject } from "react";

/** The email field, Subscribe button and error of both newsletter forms (footer and popup). */
export function NewsletterEmailField({
  inputId,
  errorId,
  inputRef,
  defaultValue,
  error,
  busy,
}: {
  inputId: string;
  errorId: string;
  inputRef: RefObject<HTMLInputElement>;
  defaultValue: string;
  /** The message to show under the field, or null. */
  error: string | null;
  busy: boolean;
}) {
  return (
    <>
      <label htmlFor={inputId}>Email address</label>
      <div className="newsletter__row">
        <input
          ref={inputRef}
          id={inputId}
          key={defaultValue}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          defaultValue={defaultValue}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <button type="submit" className="button button--primary">
          {busy ? "Subscribing…" : "Subscribe"}
        </button>
      </div>
      {/* For bots only: out of sight, out of the tab order, skipped by screen readers. */}
      <div className="honeypot" aria-hidden="true">
        <label htmlFor={`${inputId}-homepage`}>Leave this field empty</label>
        <input id={`${inputId}-homepage`} type="text" name={NEWSLETTER_HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </div>
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
