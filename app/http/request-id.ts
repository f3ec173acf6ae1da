import { useLocation } from "@remix-run/react";
import { createContext, useContext } from "react";

/**
 * The request id a server error's page shows as its reference (the error
 * page's "Reference"), so a shopper who calls can be matched to the log line
 * and the X-Request-Id header. The server gives it only to pages it answers
 * with a 5xx (entry.server.tsx), which no cache keeps: a page that may be
 * kept and served to others never carries one.
 */
export const RequestIdContext = createContext<string | undefined>(undefined);

/** The reference the served page shows and the location it was served for, read once, when the first error page hydrates. */
let served: { requestId: string | undefined; locationKey: string } | undefined;

/**
 * The server error's reference: on the server, the 5xx page's request id; in
 * the browser, the one the served page shows (ErrorPage.tsx's
 * `data-request-id`), read back from its markup as the error page hydrates, so
 * both render the same, for as long as the page stays at the location it was
 * served for. An error met after navigating came with another request, whose
 * id the browser does not have: it shows none. Only the error page (loaded on
 * demand) imports this, so no other page's script carries it.
 */
export function useRequestId(): string | undefined {
  const fromServer = useContext(RequestIdContext);
  const { key } = useLocation();
  if (typeof document === "undefined") return fromServer;
  served ??= { requestId: document.querySelector("[data-request-id]")?.getAttribute("data-request-id") ?? undefined, locationKey: key };
  return key === served.locationKey ? served.requestId : undefined;
}
