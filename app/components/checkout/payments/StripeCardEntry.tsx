import { Form } from "@remix-run/react";
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type FormEvent, type MouseEvent } from "react";
import { useHydrated } from "~/components/shared";

// Stripe.js, react-stripe-js and the Payment Element load only when the shopper opens the card popup.
const StripeCardPayment = lazy(() => import("./StripeCardPayment"));

/**
 * The card entry of the payment step when Stripe takes cards. Without script
 * it is a plain form post that sends the shopper to Stripe's hosted payment
 * page; with script the same button opens the card popup (Payment Element),
 * which closes with its close button, Escape or a click on the overlay.
 */
export function StripeCardEntry({
  checkoutToken,
  label,
  className,
  describedBy,
}: {
  checkoutToken: string;
  label: string;
  className: string;
  describedBy?: string;
}) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!open || !dialog || dialog.open) return;
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  }, [open]);

  const finish = useCallback(() => {
    setOpen(false);
    buttonRef.current?.focus();
  }, []);

  const close = useCallback(() => {
    const dialog = dialogRef.current;
    if (dialog?.open && typeof dialog.close === "function") dialog.close();
    else finish();
  }, [finish]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!hydrated) return;
    event.preventDefault();
    setOpen(true);
  };

  const onOverlayClick = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget) close();
  };

  return (
    <>
      <Form discover="none" method="post" action="/payments/start" reloadDocument onSubmit={onSubmit}>
        <input type="hidden" name="checkout" value={checkoutToken} />
        <input type="hidden" name="method" value="stripe" />
        <button ref={buttonRef} type="submit" className={className} aria-describedby={describedBy}>
          {label}
        </button>
      </Form>
      {open ? (
        // The overlay closes it on click; keyboards close it with Escape (onCancel) or the close button.
        // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions
        <dialog ref={dialogRef} className="payment-popup" aria-labelledby="card-popup-heading" onClose={finish} onClick={onOverlayClick}>
          <div className="payment-popup__body">
            <button type="button" className="payment-popup__close" onClick={close}>
              <span aria-hidden="true">×</span>
              <span className="visually-hidden">Close</span>
            </button>
            <h2 id="card-popup-heading">Pay by card</h2>
            <Suspense fallback={<p role="status">Loading the card form...</p>}>
              <StripeCardPayment checkoutToken={checkoutToken} />
            </Suspense>
          </div>
        </dialog>
      ) : null}
    </>
  );
}
