import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { requestPath } from "./guards";

/**
 * One line per request, once it is answered (or the client left): `msg`
 * "request", `requestId`, `method`, `path` without the query string (which
 * may hold what a shopper typed), `status`, `durationMs`, and `aborted` when
 * the answer never finished. Nothing else of the request or the response:
 * no headers, cookies or bodies, and nothing to serialize per request. The
 * request id is also the `X-Request-Id` response header and the load
 * context's `requestId` (req.id).
 */
export function requestLog(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => {
      const id = randomBytes(8).toString("base64url");
      res.setHeader("X-Request-Id", id);
      return id;
    },
    // What a request line holds is built below; the request and response objects themselves are never serialized.
    wrapSerializers: false,
    serializers: { req: () => undefined, res: () => undefined },
    // A line per request, whatever its status: errors are logged once, where they happen.
    customLogLevel: () => "info",
    customSuccessMessage: () => "request",
    customErrorMessage: () => "request",
    customSuccessObject: (req, res, { responseTime }: { responseTime: number }) => requestLine(req, res, responseTime),
    customErrorObject: (req, res, _error, { responseTime }: { responseTime: number }) => requestLine(req, res, responseTime),
  });
}

function requestLine(req: IncomingMessage, res: ServerResponse, durationMs: number) {
  const line = { requestId: req.id, method: req.method, path: safePath(req), status: res.statusCode, durationMs };
  return res.writableFinished ? line : { ...line, aborted: true };
}

/** The path for logs: no query string, at most 200 characters. */
function safePath(req: IncomingMessage): string {
  const target = (req as { originalUrl?: string }).originalUrl ?? req.url;
  const pathname = (requestPath(target) ?? "/").split("?")[0];
  return pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname;
}
