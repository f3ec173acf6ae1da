import { createContext, useContext } from "react";

/**
 * The request's CSP nonce while the server renders a page (entry.server.tsx
 * provides it from the load context). In the browser it is empty: browsers
 * hide a nonce from the DOM, and scripts added after hydration are allowed by
 * origin, not by nonce.
 */
export const NonceContext = createContext<string | undefined>(undefined);

export function useNonce(): string | undefined {
  return useContext(NonceContext);
}
