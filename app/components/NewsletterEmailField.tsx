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
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
