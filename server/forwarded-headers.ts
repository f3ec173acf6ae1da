import type { RequestHandler } from "express";
import { resolveProtocol, trustedHop } from "../app/http/client-address";
import { isValidHost } from "./guards";

/**
 * X-Forwarded-Proto and X-Forwarded-Host only as a trusted proxy wrote them.
 * Express reads both when `trust proxy` trusts the peer (req.protocol,
 * req.hostname), and the Remix adapter builds the request URL from those:
 * the server sets `trust proxy` to TRUSTED_PROXIES, and this middleware,
 * first in line, removes the headers when no proxy is trusted, and otherwise
 * leaves the one value the outermost trusted proxy wrote (the same entry the
 * client address is taken from), dropped when it is no scheme or host.
 */
export function trustForwardedHeaders(trustedProxies: number): RequestHandler {
  return (req, _res, next) => {
    const { headers } = req;
    if (trustedProxies <= 0) {
      delete headers["x-forwarded-proto"];
      delete headers["x-forwarded-host"];
      return next();
    }
    if (headers["x-forwarded-proto"] !== undefined) {
      headers["x-forwarded-proto"] = resolveProtocol(
        Boolean((req.socket as { encrypted?: boolean }).encrypted),
        headers["x-forwarded-proto"],
        trustedProxies,
      );
    }
    if (headers["x-forwarded-host"] !== undefined) {
      const host = trustedHop(headers["x-forwarded-host"], trustedProxies);
      if (isValidHost(host)) headers["x-forwarded-host"] = host;
      else delete headers["x-forwarded-host"];
    }
    next();
  };
}
