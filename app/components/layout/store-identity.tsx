import type { PublicConfig } from "~/public-config.server";

/**
 * The store's public details (name, phone, email) for the one page that is
 * drawn without root's loader data: root's error boundary when the error came
 * from an action that root itself answers for (the router runs no loader at or
 * below the boundary after a failed action) or from root's own loader. See
 * docs/decisions/007-error-pages-in-the-store-layout.md.
 *
 * The server registers the details once at start (entry.server.tsx); the
 * error page writes them into its HTML with <StoreIdentityScript>, and the
 * browser reads them back from there while hydrating, so both render the same.
 */

const ELEMENT_ID = "store-identity";
let registered: PublicConfig | null = null;

export function registerStoreIdentity(identity: PublicConfig): void {
  registered = identity;
}

export function fallbackStoreIdentity(): PublicConfig | null {
  if (typeof document === "undefined") return registered;
  const text = document.getElementById(ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as PublicConfig;
  } catch {
    return null;
  }
}

export function StoreIdentityScript({ identity }: { identity: PublicConfig }) {
  // `<` escaped so no value can close the script element.
  const json = JSON.stringify(identity).replace(/</g, "\\u003c");
  return <script id={ELEMENT_ID} type="application/json" dangerouslySetInnerHTML={{ __html: json }} />;
}
