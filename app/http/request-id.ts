import { useLocation } from "@remix-run/react";
import { createContext, useContext } from "react";

/**
 * The request id a server error's page shows as its reference (the error
 * page's "Reference"), so a shopper who calls can be matched to the log line
 * and the X-Request-Id header. The server gives it only to pages it answers
 * with a 5xx (entry.server.tsx), which no cache keeps: a page that may be
 * kept and served to others never carries one. The browser reads it back from
 * that page before hydrating (entry.client.tsx), so both render the same.
 */
export const RequestIdContext = createContext<string | undefined>(undefined);

/** The reference the server's page shows, if it shows one (ErrorPage.tsx's `data-request-id`). */
export function servedRequestId(document: Document): string | undefined {
  return document.querySelector("[data-request-id]")?.getAttribute("data-request-id") ?? undefined;
}

/** The location the browser's first page was rendered for: the served reference belongs to it alone. */
let servedLocationKey: string | undefined;

/**
 * The server error's reference: on the server, the 5xx page's request id; in
 * the browser, the served one, for as long as the page stays at the location
 * it was served for. An error met after navigating came with another
 * request, whose id the browser does not have: it shows none.
 */
export function useRequestId(): string | undefined {
  const requestId = useContext(RequestIdContext);
  const { key } = useLocation();
  if (requestId === undefined || typeof document === "undefined") return requestId;
  servedLocationKey ??= key;
  return key === servedLocationKey ? requestId : undefined;
}
