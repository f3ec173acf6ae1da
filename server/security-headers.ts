import type { ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import helmet from "helmet";
import type { Config } from "../app/config.server";

/**
 * The headers every response carries, whatever makes it: pages, `.data`,
 * JSON and resource routes, redirects, errors, static files and the server's
 * own refusals. Helmet sets them before anything answers, and a response's
 * own value of one replaces it (useOwnHeaders): a page's
 * Content-Security-Policy comes from entry.server.tsx
 * (app/http/content-security-policy.server.ts, keyed to the request's nonce).
 */
export function securityHeaders(config: Pick<Config, "NODE_ENV" | "PUBLIC_BASE_URL">): RequestHandler[] {
  return [
    helmet({
      // Non-page responses are framed by no one (the policy helmet calls dangerous is one without default-src: these
      // responses load nothing); pages replace it with their whole policy.
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: helmet.contentSecurityPolicy.dangerouslyDisableDefaultSrc, frameAncestors: ["'none'"] },
      },
      // Our pages keep their window to themselves; popups we open (chat, PayPal) may still talk back.
      crossOriginOpenerPolicy: { policy: "same-origin-allow-popups" },
      crossOriginResourcePolicy: false,
      originAgentCluster: false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      strictTransportSecurity: hstsApplies(config) ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      xContentTypeOptions: true,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      // Nothing of ours may be framed by another site (clickjacking); frame-ancestors says the same.
      xFrameOptions: { action: "deny" },
      xPermittedCrossDomainPolicies: false,
      xPoweredBy: true,
      xXssProtection: false,
    }),
    (_req, res, next) => {
      // Helmet has none for Permissions-Policy.
      res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(self), payment=(self)");
      next();
    },
  ];
}

/** HSTS only where it is true: a production build whose public address is https. */
function hstsApplies(config: Pick<Config, "NODE_ENV" | "PUBLIC_BASE_URL">): boolean {
  return config.NODE_ENV === "production" && (config.PUBLIC_BASE_URL ?? "").startsWith("https://");
}

/**
 * The headers these middlewares set, for answers Node writes on the socket
 * before Express runs (server/raw-refusals.ts): they set their headers at
 * once and read nothing of the request.
 */
export function headersSetBy(handlers: RequestHandler[]): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name] = String(value)),
    removeHeader: (name: string) => void delete headers[name],
  };
  for (const handler of handlers)
    handler({} as Parameters<RequestHandler>[0], recorder as unknown as Parameters<RequestHandler>[1], () => {});
  return headers;
}

/**
 * A response's own headers replace the defaults of the same name (set by
 * securityHeaders), and one whose own Content-Security-Policy lets a page
 * frame it (the Authorize.Net iframe communicator) loses X-Frame-Options,
 * which would forbid what its frame-ancestors allows. Call it before the
 * response's headers are set on `res`.
 */
export function useOwnHeaders(res: ServerResponse, own: Iterable<[string, string]>): void {
  for (const [name, value] of own) {
    res.removeHeader(name);
    if (name.toLowerCase() === "content-security-policy" && /frame-ancestors\s+(?!'none')/i.test(value))
      res.removeHeader("X-Frame-Options");
  }
}
