import { paymentCancelPath } from "~/payments/paths";
import { PayPalButtons as SdkButtons, PayPalScriptProvider, usePayPalScriptReducer } from "@paypal/react-paypal-js";
import { useNavigate } from "@remix-run/react";
import { useRef, useState, type ReactNode } from "react";

export const PAYPAL_SCRIPT_ERROR = "Failed to load the PayPal JS SDK script.";
const PAYMENT_FAILED = "Payment failed: An unexpected error occurred.";
/** The createOrder answers whose `error` is written for the shopper. */
const SHOPPER_REFUSALS = new Set([404, 409, 429]);
const BUTTON_STYLE = { layout: "horizontal", color: "white", shape: "rect", label: "pay", height: 43 } as const;

interface Props {
  clientId: string;
  /** The JS SDK address, e.g. https://www.sandbox.paypal.com/sdk/js. */
  sdkUrl: string;
  checkoutToken: string;
  /** The plain form button (PayPal's hosted page): shown while the SDK loads and when it cannot. */
  fallback: ReactNode;
}

/**
 * PayPal's smart buttons (loaded only on the payment step, and only when the
 * PayPal driver is configured). createOrder asks our server to create the
 * order for the checkout's own total; onApprove goes to the return page,
 * where the server captures the order and records it only if PayPal says so.
 */
export default function PayPalButtons({ clientId, sdkUrl, checkoutToken, fallback }: Props) {
  return (
    <PayPalScriptProvider options={{ clientId, currency: "USD", intent: "capture", sdkBaseUrl: sdkUrl }}>
      <WalletButtons checkoutToken={checkoutToken} fallback={fallback} />
    </PayPalScriptProvider>
  );
}

function WalletButtons({ checkoutToken, fallback }: Pick<Props, "checkoutToken" | "fallback">) {
  const [{ isResolved, isRejected }] = usePayPalScriptReducer();
  const navigate = useNavigate();
  const attempts = useRef(new Map<string, string>());
  // The server's own refusal of the last createOrder (out of stock, the discount taken...): shown instead of the general failure.
  const refusal = useRef<string | null>(null);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  if (isRejected) {
    return (
      <>
        <p className="notice notice--error" role="alert">
          {PAYPAL_SCRIPT_ERROR}
        </p>
        {fallback}
      </>
    );
  }
  if (!isResolved) return <>{fallback}</>;

  async function createOrder(): Promise<string> {
    setMessage(null);
    refusal.current = null;
    const response = await fetch("/api/paypal/orders", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ checkoutToken }),
    });
    const body = (await response.json().catch(() => null)) as { orderId?: string; attemptId?: string; error?: string } | null;
    if (!response.ok || !body?.orderId || !body.attemptId) {
      // These say why in words meant for the shopper (409: a line out of stock, the discount taken; 429: too many tries); the rest get the general message.
      if (SHOPPER_REFUSALS.has(response.status) && typeof body?.error === "string") refusal.current = body.error;
      throw new Error(`Could not create the PayPal order (${response.status}).`);
    }
    attempts.current.set(body.orderId, body.attemptId);
    return body.orderId;
  }

  async function onApprove({ orderID }: { orderID?: string | null }) {
    const attemptId = orderID ? attempts.current.get(orderID) : undefined;
    if (!attemptId) {
      setMessage({ text: PAYMENT_FAILED, error: true });
      return;
    }
    setMessage({ text: "Processing payment...", error: false });
    navigate(`/checkout-authorized/paypal?${new URLSearchParams({ checkout_token: checkoutToken, attempt: attemptId })}`);
  }

  /** Closing PayPal's window: the server checks the order and the checkout says "Payment cancelled". */
  function onCancel({ orderID }: { orderID?: string | null }) {
    const attemptId = orderID ? attempts.current.get(orderID) : undefined;
    navigate(paymentCancelPath(checkoutToken, attemptId ?? ""));
  }

  return (
    <>
      <SdkButtons
        style={BUTTON_STYLE}
        createOrder={createOrder}
        onApprove={onApprove}
        onCancel={onCancel}
        onError={() => setMessage({ text: refusal.current ?? PAYMENT_FAILED, error: true })}
      />
      {message ? (
        <p className={message.error ? "notice notice--error" : "notice notice--info"} role={message.error ? "alert" : "status"}>
          {message.text}
        </p>
      ) : null}
    </>
  );
}
