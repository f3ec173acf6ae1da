import type { Config } from "~/config.server";

/**
 * The headers every response carries, whatever made it: pages, `.data`
 * requests, JSON and resource routes, redirects, errors, static files and the
 * server's own refusals (405, 400, 413). The HTTP server adds each one the
 * response does not already have (server/security-headers.ts); pages get
 * their full Content-Security-Policy from entry.server.tsx
 * (content-security-policy.server.ts).
 */
export function baselineSecurityHeaders(config: Pick<Config, "NODE_ENV" | "PUBLIC_BASE_URL">): Record<string, string> {
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // Nothing of ours may be framed by another site (clickjacking); the CSP's frame-ancestors says the same.
    "X-Frame-Options": "DENY",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(self), payment=(self)",
    // Our pages keep their window to themselves; popups we open (chat, PayPal) may still talk back.
    "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
    // Non-page responses get the most restrictive policy; pages replace it with theirs.
    "Content-Security-Policy": "frame-ancestors 'none'",
  };
  if (hstsApplies(config)) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** HSTS only where it is true: a production build whose public address is https. */
function hstsApplies(config: Pick<Config, "NODE_ENV" | "PUBLIC_BASE_URL">): boolean {
  return config.NODE_ENV === "production" && (config.PUBLIC_BASE_URL ?? "").startsWith("https://");
}
