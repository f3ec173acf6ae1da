import { paymentCancelPath } from "~/payments/paths";
import { PayPalButtons as SdkButtons, PayPalScriptProvider, usePayPalScriptReducer } from "@paypal/react-paypal-js";
import { useNavigate } from "@remix-run/react";
import { useRef, useState, type ReactNode } from "react";

export const PAYPAL_SCRIPT_ERROR = "Failed to load the PayPal JS SDK script.";
const PAYMENT_FAILED = "Payment failed: An unexpected error occurred.";
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
  const [message, setMessage] = useState<string | null>(null);

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
    const response = await fetch("/api/paypal/orders", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ checkoutToken }),
    });
    const body = (await response.json().catch(() => null)) as { orderId?: string; attemptId?: string } | null;
    if (!response.ok || !body?.orderId || !body.attemptId) throw new Error(`Could not create the PayPal order (${response.status}).`);
    attempts.current.set(body.orderId, body.attemptId);
    return body.orderId;
  }

  async function onApprove({ orderID }: { orderID?: string | null }) {
    const attemptId = orderID ? attempts.current.get(orderID) : undefined;
    if (!attemptId) {
      setMessage(PAYMENT_FAILED);
      return;
    }
    setMessage("Processing payment...");
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
        onError={() => setMessage(PAYMENT_FAILED)}
      />
      {message ? (
        <p
          className={message === PAYMENT_FAILED ? "notice notice--error" : "notice notice--info"}
          role={message === PAYMENT_FAILED ? "alert" : "status"}
        >
          {message}
        </p>
      ) : null}
    </>
  );
}
