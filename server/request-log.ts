import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { requestPath } from "./guards";

declare module "node:http" {
  interface IncomingMessage {
    /**
     * This request's id: the `X-Request-Id` response header, the load context's `requestId`, and its log line's. The
     * trusted proxy's (its `X-Request-Id`, Caddy's UUID) when there is one and it looks like an id, else one of our own.
     */
    id: string;
  }
}

/**
 * One line per request, once it is answered (or the client left): `msg`
 * "request", `requestId`, `method`, `path` without the query string (which
 * may hold what a shopper typed), `status`, `durationMs`, and `aborted` when
 * the answer never finished. Nothing else of the request or the response:
 * no headers, cookies or bodies. Written by hand rather than with pino-http,
 * which makes two child loggers and three listeners per request: a request
 * line costs one object and one `logger.info`.
 *
 * With `trustedProxies` (TRUSTED_PROXIES) above 0 every request comes through
 * the proxy, which sets `X-Request-Id` itself (deploy/Caddyfile), so its id
 * is taken and the proxy's log and this line join; without, a client could
 * choose the id, so the header is ignored.
 */
export function requestLog(logger: Logger, { trustedProxies = 0 }: { trustedProxies?: number } = {}) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const startedAt = Date.now();
    req.id = incomingRequestId(req, trustedProxies) ?? randomBytes(8).toString("base64url");
    res.setHeader("X-Request-Id", req.id);
    // A response emits `close` once, after `finish` or when the connection ended first.
    res.once("close", () => {
      const line = {
        requestId: req.id,
        method: req.method,
        path: safePath(req),
        status: res.statusCode,
        durationMs: Date.now() - startedAt,
      };
      logger.info(res.writableFinished ? line : { ...line, aborted: true }, "request");
    });
    next();
  };
}

/** An id the proxy sent: letters, digits, `.`, `_` and `-` (a UUID fits); anything else, or two headers, is not taken. */
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

function incomingRequestId(req: IncomingMessage, trustedProxies: number): string | undefined {
  if (trustedProxies <= 0) return undefined;
  const value = req.headers["x-request-id"];
  return typeof value === "string" && REQUEST_ID.test(value) ? value : undefined;
}

/** The path for logs: no query string, at most 200 characters. */
function safePath(req: IncomingMessage): string {
  const target = (req as { originalUrl?: string }).originalUrl ?? req.url;
  const pathname = (requestPath(target) ?? "/").split("?")[0];
  return pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname;
}
