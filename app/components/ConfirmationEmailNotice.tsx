import { SiteLink } from "~/components/shared";
import type { ConfirmationEmailState } from "~/orders/confirmation-email";

/**
 * What the thank-you page says about the confirmation email: that it was
 * sent, or plainly that it could not be sent yet, that we keep trying, and
 * how to look the order up meanwhile. The order is recorded either way.
 */
export function ConfirmationEmailNotice({
  firstName,
  email,
  state,
  orderId,
}: {
  firstName: string;
  email: string;
  state: ConfirmationEmailState;
  orderId: string;
}) {
  if (state === "sent") {
    return (
      <p data-testid="confirmation-email" data-state="sent">
        Thank you, {firstName}. A confirmation was emailed to <strong>{email}</strong>.
      </p>
    );
  }
  return (
    <>
      <p>Thank you, {firstName}. Your order is placed.</p>
      <ConfirmationEmailPending state={state} orderId={orderId} email={email} />
    </>
  );
}

/** The notice for a confirmation email that has not gone out (yet). */
export function ConfirmationEmailPending({ state, orderId, email }: { state: "pending" | "failed"; orderId: string; email?: string }) {
  const to = email ? (
    <>
      {" "}
      to <strong>{email}</strong>
    </>
  ) : null;
  return (
    <p className="notice notice--info" role="status" data-testid="confirmation-email" data-state={state}>
      {state === "failed" ? (
        <>We could not send the confirmation email{to}.</>
      ) : (
        <>The confirmation email{to} could not be sent yet. We will keep trying.</>
      )}{" "}
      Please note your Order ID <strong>{orderId}</strong>: you can look your order up at any time on the{" "}
      <SiteLink to={`/order-status/${orderId}`}>order status page</SiteLink>
      {state === "failed" ? ", or contact us and we will send it again." : "."}
    </p>
  );
}
