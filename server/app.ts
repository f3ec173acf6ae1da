import { randomBytes } from "node:crypto";
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import compression from "compression";
import express, { type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import type { Config } from "../app/config.server";
import { answersOversizeWithPage, bodyLimitFor, oversizeAnswer } from "../app/http/body-limits";
import { applyCachePolicy } from "../app/utils/cache-control.server";
import { resolveClientAddress, resolveProtocol } from "../app/http/client-address";
import type { StoreLoadContext } from "../app/http/load-context";
import type { StoreRuntime } from "../app/runtime.server";
import { log, logError } from "../app/http/logger.server";
import { baselineSecurityHeaders } from "../app/http/security-headers.server";
import { ALLOWED_METHODS, declaredLength, isAppMethod, isValidHost, requestPath } from "./guards";
import { neutralizeCrossSiteOrigin } from "../app/http/request-screen";
import { capConnections, connectionLimitsFor, serverTimeouts, type ConnectionSettings } from "./connection-limits";
import { BodyTooLargeError, fetchRequestOf, sendFetchResponse, type FetchHandler } from "./remix-handler";
import { refuseWhatNeverReachesExpress } from "./raw-refusals";
import { withDefaultHeaders } from "./security-headers";
import { SharedCache } from "./shared-cache";

export interface StoreAppOptions {
  /** Remix's request handler (createRequestHandler(build, mode)), or a stand-in in tests. */
  handleRequest: FetchHandler;
  /** The runtime every loader and action gets as `context.store`. */
  store: StoreRuntime;
  /** The connection limits and timeouts left out take the configuration's defaults (server/connection-limits.ts). */
  config: Pick<Config, "NODE_ENV" | "PUBLIC_BASE_URL" | "TRUSTED_PROXIES"> & ConnectionSettings;
  /** The build's public path and folder (build.publicPath, build.assetsBuildDirectory). */
  assets: { publicPath: string; directory: string };
  /** Other static files (default ./public). */
  publicDirectory?: string;
  /** True once the server is shutting down: answers then say Connection: close, and /readyz 503. */
  isClosing?: () => boolean;
  /** Whether the store can serve (its database answers), for /readyz; unset: always. */
  isReady?: () => Promise<boolean>;
  /** Public responses kept in the process (server/shared-cache.ts); `false` turns it off (tests of the app itself). */
  sharedCache?: SharedCache | false;
}

interface RequestState {
  requestId: string;
  /** The path without the query string (which may hold what a shopper typed); for logs. */
  path: string;
  /** The path and query for the app. */
  target: string;
}

const stateOf = (res: ExpressResponse) => res.locals as RequestState;

/**
 * The store's HTTP server in front of Remix (ADR 010): request ids and JSON
 * request logs, the security headers of every response, refusals that must
 * happen before any route runs (methods, Host, body size), compression, the
 * static files, and the load context (client address, request id, CSP nonce).
 */
export function createStoreApp(options: StoreAppOptions): express.Express {
  const { config, handleRequest } = options;
  const defaults = baselineSecurityHeaders(config);
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag"); // static files have their own; Remix sets what it wants

  app.use((req, res, next) => {
    const started = performance.now();
    const target = requestPath(req.url) ?? "/";
    const state = stateOf(res);
    state.requestId = randomBytes(8).toString("base64url");
    state.target = target;
    state.path = safePath(target);
    withDefaultHeaders(res, defaults, () => {
      // Shutting down: this answer is the connection's last.
      if (options.isClosing?.()) res.setHeader("Connection", "close");
    });
    res.setHeader("X-Request-Id", state.requestId);
    let logged = false;
    const logLine = () => {
      if (logged) return;
      logged = true;
      const fields = {
        requestId: state.requestId,
        method: req.method,
        path: state.path,
        status: res.statusCode,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      };
      log("info", "request", res.writableFinished ? fields : { ...fields, aborted: true });
    };
    res.once("finish", logLine);
    res.once("close", logLine);
    next();
  });

  app.use(refuseEarly);
  app.get("/readyz", (_req, res) => void answerReadiness(options, res));
  app.use(compression());
  app.use(
    options.assets.publicPath,
    express.static(path.resolve(options.assets.directory), { immutable: true, maxAge: "1y", index: false, redirect: false }),
  );
  const publicFiles = express.static(path.resolve(options.publicDirectory ?? "public"), { maxAge: "1h", index: false, redirect: false });
  // Every file in public/ has an extension; a page's path (no extension) skips the file lookup it could never match.
  app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));

  const sharedCache = options.sharedCache === false ? null : (options.sharedCache ?? new SharedCache());

  app.all("*", (req, res, next) => {
    const state = stateOf(res);
    const cspNonce = randomBytes(16).toString("base64");
    const cacheKey = sharedCache?.keyOf(req.method, state.target, req.headers) ?? null;
    const cached = cacheKey
      ? sharedCache?.answer(cacheKey, { nonce: cspNonce, method: req.method, ifNoneMatch: req.headers["if-none-match"] })
      : undefined;
    if (cached) {
      res.statusCode = cached.status;
      for (const [name, value] of cached.headers) res.setHeader(name, value);
      res.end(cached.body);
      return;
    }
    const loadContext = {
      store: options.store,
      clientAddress: resolveClientAddress({
        socketAddress: req.socket.remoteAddress,
        forwardedFor: req.headers["x-forwarded-for"],
        trustedProxies: config.TRUSTED_PROXIES,
      }),
      requestId: state.requestId,
      cspNonce,
    } satisfies StoreLoadContext;
    const protocol = resolveProtocol(isEncrypted(req), req.headers["x-forwarded-proto"], config.TRUSTED_PROXIES);
    const routeLimit = bodyLimitFor(new URL(state.target, "http://x").pathname);
    const declared = declaredLength(req.headers["content-length"]);
    // A page's form a little over the limit is read whole, so the route's readForm answers with the store's 413 page.
    const limit = answersOversizeWithPage(declared, routeLimit, req.headers.accept) ? (declared as number) : routeLimit;
    const request = fetchRequestOf(req, res, {
      origin: `${protocol}://${req.headers.host}`,
      path: state.target,
      bodyLimit: limit,
      onOverflow: () => tooLarge(req, res, limit),
    });
    handleRequest(neutralizeCrossSiteOrigin(request), loadContext)
      .then((response) => {
        // Pages and their `.data` alike: a response for a request with a cookie is never public (it shows the cart).
        const isPublic = applyCachePolicy(request, response.status, response.headers);
        if (cacheKey && sharedCache && isPublic && request.method === "GET" && sharedCache.storable(response.status, response.headers))
          return keepAndSend(sharedCache, cacheKey, response, cspNonce, res);
        return sendFetchResponse(res, response);
      })
      .catch((error: unknown) => {
        // Cut off by the body limit (already answered 413) or left by the client: nothing went wrong here.
        if (request.signal.aborted || error instanceof BodyTooLargeError) return void (res.headersSent || res.destroy());
        next(error);
      });
  });

  app.use((error: unknown, req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
    // A client's mistake found by a middleware (a malformed path for the static files...): its status, no stack.
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500 && !res.headersSent)
      return plain(res, status, STATUS_CODES[status] ?? "Bad Request");
    logError("request failed in the server", error, { requestId: stateOf(res).requestId, method: req.method, path: stateOf(res).path });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    plain(res, 500, "Internal Server Error");
  });

  return app;
}

/**
 * Readiness, for a load balancer: 200 while this process takes traffic, 503 while it
 * drains for a shutdown or cannot reach its database. (The server listens only once
 * start-up is done, so a process that answers has started; /healthz says it is alive.)
 */
async function answerReadiness(options: StoreAppOptions, res: ExpressResponse): Promise<void> {
  const draining = options.isClosing?.() ?? false;
  const reachable = draining ? false : await (options.isReady?.() ?? Promise.resolve(true)).catch(() => false);
  const status = draining ? "draining" : reachable ? "ready" : "database unreachable";
  res.status(draining || !reachable ? 503 : 200);
  res.setHeader("Cache-Control", "no-store");
  res.json({ status });
}

/** Reads a public response whole, keeps it in the shared cache and sends it. */
async function keepAndSend(cache: SharedCache, key: string, response: Response, nonce: string, res: ExpressResponse): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  cache.store(key, response.headers, body, nonce);
  return sendFetchResponse(res, new Response(body, response));
}

/** The HTTP server: the app, and the refusals Node makes before the app sees a request. */
export function createStoreServer(options: StoreAppOptions): Server {
  const app = createStoreApp(options);
  const limits = connectionLimitsFor(options.config);
  const server = createServer(serverTimeouts(limits), app);
  capConnections(server, limits, (msg, fields) => log("warn", msg, fields));
  refuseWhatNeverReachesExpress(server, baselineSecurityHeaders(options.config));
  // A client that asks before sending its body (Expect: 100-continue) is told to go on only when the body will be taken.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    const target = requestPath(req.url);
    const declared = declaredLength(req.headers["content-length"]);
    const refused =
      !isAppMethod(req.method) ||
      target === null ||
      Number.isNaN(declared) ||
      (declared !== null &&
        declared > bodyLimitFor(new URL(target, "http://x").pathname) &&
        !answersOversizeWithPage(declared, bodyLimitFor(new URL(target, "http://x").pathname), req.headers.accept));
    if (!refused) res.writeContinue();
    app(req, res);
  });
  return server;
}

/** Method, Host, request target and declared body size: refused before anything else runs. */
function refuseEarly(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
  if (!isAppMethod(req.method)) {
    res.setHeader("Allow", ALLOWED_METHODS);
    return plain(res, 405, "Method Not Allowed", { close: true });
  }
  if (!isValidHost(req.headers.host) || requestPath(req.url) === null) return plain(res, 400, "Bad Request", { close: true });
  if (req.method !== "GET" && req.method !== "HEAD") {
    const declared = declaredLength(req.headers["content-length"]);
    if (Number.isNaN(declared)) return plain(res, 400, "Bad Request", { close: true });
    const limit = bodyLimitFor(new URL(stateOf(res).target, "http://x").pathname);
    if (declared !== null && declared > limit && !answersOversizeWithPage(declared, limit, req.headers.accept))
      return tooLarge(req, res, limit);
  }
  next();
}

/** 413, then the connection is closed: the rest of the body is never read into memory. */
function tooLarge(req: IncomingMessage, res: ServerResponse, limit: number) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const answer = oversizeAnswer(new URL(req.url ?? "/", "http://x").pathname, limit);
  res.statusCode = 413;
  res.setHeader("Content-Type", answer.contentType);
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Connection", "close");
  res.end(answer.body);
  req.pause();
  // Let the client read the answer, then drop whatever it is still sending.
  res.once("finish", () => setTimeout(() => req.socket.destroy(), 1000).unref());
}

function plain(res: ServerResponse, status: number, message: string, { close = false }: { close?: boolean } = {}) {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  if (close) res.setHeader("Connection", "close");
  res.end(`${message}\n`);
}

function isEncrypted(req: IncomingMessage): boolean {
  return Boolean((req.socket as { encrypted?: boolean }).encrypted);
}

/** The path for logs: no query string, at most 200 characters. */
function safePath(target: string): string {
  const pathname = target.split("?")[0];
  return pathname.length > 200 ? `${pathname.slice(0, 200)}…` : pathname;
}
