import { useEffect, useRef, useState, type CSSProperties } from "react";

declare global {
  interface Window {
    /** Called by our iframe communicator page (loaded by Authorize.Net inside its form) with "action=..." messages. */
    AuthorizeNetPopup?: { onReceiveCommunication(message: string | { qstr: string }): void };
  }
}

const FRAME_NAME = "authorize-net-payment-frame";

/** 70% of the window when it is wider than 576 px, else 300 px; 90% high. */
export function popupSize(windowWidth: number): { width: string; height: string } {
  return { width: windowWidth > 576 ? "70%" : "300px", height: "90%" };
}

export type CommunicatorAction =
  { kind: "close" } | { kind: "resize"; width: number; height: number } | { kind: "return"; transId: string | null } | { kind: "ignore" };

/** What a communicator message asks for: successfulSave and cancel close the popup, transactResponse returns; resizeWindow resizes it. */
export function communicatorAction(message: string): CommunicatorAction {
  const params = new URLSearchParams(message);
  switch (params.get("action")) {
    case "successfulSave":
    case "cancel":
      return { kind: "close" };
    case "transactResponse":
      return { kind: "return", transId: transIdOf(params.get("response")) };
    case "resizeWindow": {
      const width = Number.parseInt(params.get("width") ?? "", 10);
      const height = Number.parseInt(params.get("height") ?? "", 10);
      return width > 0 && height > 0 ? { kind: "resize", width, height } : { kind: "ignore" };
    }
    default:
      return { kind: "ignore" };
  }
}

/**
 * Where our page goes after a message: the return page after a transaction (its transId as a hint), the
 * attempt's cancel page when the form closes without one, as the form's Cancel does without script; the
 * server asks Authorize.Net either way. Null: stay.
 */
export function pageAfter(action: CommunicatorAction, urls: { returnUrl: string; cancelUrl: string }): string | null {
  if (action.kind === "close") return urls.cancelUrl;
  if (action.kind !== "return") return null;
  return action.transId ? `${urls.returnUrl}&${new URLSearchParams({ trans_id: action.transId })}` : urls.returnUrl;
}

function transIdOf(response: string | null): string | null {
  try {
    const parsed: unknown = JSON.parse(response ?? "");
    const transId = typeof parsed === "object" && parsed !== null ? (parsed as { transId?: unknown }).transId : null;
    return typeof transId === "string" || typeof transId === "number" ? String(transId) : null;
  } catch {
    return null;
  }
}

/**
 * Authorize.Net's hosted payment form in a popup over our page: a hidden form
 * posts the token into the iframe; the form reports back through our iframe
 * communicator page. The page then leaves for the return page or, when the
 * shopper cancels or closes the popup, the attempt's cancel page (pageAfter).
 */
export default function AuthorizeNetPopup({
  token,
  hostedUrl,
  returnUrl,
  cancelUrl,
}: {
  token: string;
  hostedUrl: string;
  returnUrl: string;
  cancelUrl: string;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const [size, setSize] = useState(() => popupSize(window.innerWidth));
  /** The form's own size once it reports one (resizeWindow); until then the frame fills the popup. */
  const [frameSize, setFrameSize] = useState<{ width: number; height: number } | null>(null);
  /** Once the page is leaving, a later Escape or message must not send it elsewhere. */
  const leavingRef = useRef(false);
  const follow = (action: CommunicatorAction) => {
    const next = pageAfter(action, { returnUrl, cancelUrl });
    if (next === null || leavingRef.current) return;
    leavingRef.current = true;
    window.location.assign(next);
  };
  const followRef = useRef(follow);
  followRef.current = follow;

  useEffect(() => {
    formRef.current?.submit();
  }, []);

  useEffect(() => {
    const fitWindow = () => setSize(popupSize(window.innerWidth));
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") followRef.current({ kind: "close" });
    };
    window.addEventListener("resize", fitWindow);
    window.addEventListener("keydown", closeOnEscape);
    window.AuthorizeNetPopup = {
      onReceiveCommunication(message) {
        const action = communicatorAction(typeof message === "string" ? message : message.qstr);
        if (action.kind === "resize") setFrameSize({ width: action.width, height: action.height });
        else followRef.current(action);
      },
    };
    return () => {
      window.removeEventListener("resize", fitWindow);
      window.removeEventListener("keydown", closeOnEscape);
      delete window.AuthorizeNetPopup;
    };
  }, []);

  return (
    <div style={overlayStyle} data-testid="authorize-net-popup">
      <div role="dialog" aria-modal="true" aria-label="Secure payment form" style={frameSize ? dialogStyle : { ...dialogStyle, ...size }}>
        <button type="button" className="button" onClick={() => follow({ kind: "close" })} style={closeStyle}>
          Close payment form
        </button>
        <form ref={formRef} method="post" action={hostedUrl} target={FRAME_NAME} hidden>
          <input type="hidden" name="token" value={token} />
        </form>
        <iframe
          name={FRAME_NAME}
          title="Authorize.Net secure payment form"
          style={frameSize ? { ...reportedFrameStyle, width: frameSize.width, height: frameSize.height } : frameStyle}
        />
      </div>
    </div>
  );
}

const overlayStyle: CSSProperties = {
  position: "fixed",
  inset: 0,
  zIndex: 1000,
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  background: "rgba(0, 0, 0, 0.6)",
};
const dialogStyle: CSSProperties = {
  display: "flex",
  flexDirection: "column",
  maxWidth: "100%",
  maxHeight: "100%",
  background: "#fff",
  borderRadius: 6,
  overflow: "hidden",
};
const closeStyle: CSSProperties = { alignSelf: "flex-end", margin: 8 };
const frameStyle: CSSProperties = { flex: 1, width: "100%", border: 0 };
const reportedFrameStyle: CSSProperties = { border: 0, maxWidth: "95vw", maxHeight: "85vh" };
