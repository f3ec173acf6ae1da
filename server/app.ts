import { randomBytes } from "node:crypto";
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import path from "node:path";
// The official adapter's own request and response (createRequestHandler is these two around Remix): see remixRequestHandler.
import { createRemixRequest, sendRemixResponse } from "@remix-run/express/dist/server.js";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request as ExpressRequest, type RequestHandler, type Response as ExpressResponse } from "express";
import type { Config } from "../app/config.server";
import { addressKey, resolveClientAddress } from "../app/http/client-address";
import { logError, logger } from "../app/observability/logger.server";
import { withRequestId } from "../app/observability/request-context.server";
import { neutralizeCrossSiteOrigin } from "../app/http/request-screen";
import { takeDocumentPipe, type PipeDocument } from "../app/http/piped-document.server";
import type { Logger } from "pino";
import type { StoreRuntime } from "../app/store-runtime";
import { applyCachePolicy } from "../app/utils/cache-control.server";
import { answerTooLarge, bodyLimitOf, limitRequestBody } from "./body-limit";
import { bodyBudgetFor, budgetRequestBodies, type BodyBudgetSettings } from "./body-budget";
import { capConnections, connectionLimitsFor, serverTimeouts, type ConnectionSettings } from "./connection-limits";
import { quietCounter } from "../app/http/quiet-log";
import { trustForwardedHeaders } from "./forwarded-headers";
import { ALLOWED_METHODS, declaredLength, isAppMethod, isOldDataRequest, isValidHost, requestPath } from "./guards";
import { precompressedAssets } from "./precompressed-assets";
import { refuseWhatNeverReachesExpress } from "./raw-refusals";
import { requestLog } from "./request-log";
import { markRenderStart, requestMetrics } from "./request-metrics";
import { sharedCacheLookups } from "../app/observability/metrics.server";
import { headersSetBy, securityHeaders, useOwnHeaders } from "./security-headers";
import { SharedCache } from "./shared-cache";
import { createMarkupCache } from "../app/http/markup-cache.server";
import { CACHE_ANSWER_HEADER, type CacheAnswer } from "../app/utils/cache-answer";

export interface StoreAppOptions {
  /** The Remix build (the app's, or a stand-in in tests): its routes, and its static files at build.publicPath. */
  build: ServerBuild;
  /** The runtime every loader and action gets as `context.store`. */
  store: StoreRuntime;
  /** The connection limits and timeouts left out take the configuration's defaults (server/connection-limits.ts). */
  config: Pick<Config, "NODE_ENV" | "PUBLIC_BASE_URL" | "TRUSTED_PROXIES"> & ConnectionSettings & BodyBudgetSettings;
  /** Other static files (default ./public). */
  publicDirectory?: string;
  /** True once the server is shutting down: answers then say Connection: close, and /readyz 503. */
  isClosing?: () => boolean;
  /** Whether the store can serve (its database answers), for /readyz; unset: always. */
  isReady?: () => Promise<boolean>;
  /** Where request lines and connection warnings go (default: the store's log, app/observability/logger.server.ts). */
  logger?: Logger;
  /** Whether requests are observed for the metrics (duration, render time, shared-cache hits: server/request-metrics.ts); off without a metrics port. */
  requestMetrics?: boolean;
  /** Public responses kept in the process (server/shared-cache.ts); `false` turns it off (tests of the app itself). */
  sharedCache?: SharedCache | false;
}

interface RequestState {
  /** The nonce of this response's Content-Security-Policy and of the page's scripts. */
  cspNonce: string;
}

const stateOf = (res: ExpressResponse) => res.locals as RequestState;

/**
 * The store's HTTP server in front of Remix (ADR 025): request ids and JSON
 * request logs, the security headers of every response, refusals that must
 * happen before any route runs (methods, Host, body size), compression, the
 * static files, and the load context (client address, request id, CSP nonce).
 */
export function createStoreApp(options: StoreAppOptions): express.Express {
  const { config, build } = options;
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag"); // static files have their own; Remix sets what it wants
  // Express reads X-Forwarded-Proto and -Host (req.protocol, req.hostname) only from as many proxies as TRUSTED_PROXIES says.
  app.set("trust proxy", config.TRUSTED_PROXIES);

  app.use(requestLog(options.logger ?? logger, { trustedProxies: config.TRUSTED_PROXIES }));
  if (options.requestMetrics) app.use(requestMetrics(build));
  app.use((_req, res, next) => {
    closeWhenDraining(options, res);
    next();
  });
  app.use(securityHeaders(config));
  app.use(refuseEarly);
  app.use(trustForwardedHeaders(config.TRUSTED_PROXIES));
  // Before the static files, compression and the shared cache: a refused upload costs as little as it can.
  app.use(budgetRequestBodies(bodyBudgetFor(config), (req) => addressKey(clientAddressOf(req, config)), quietWarnings(options)));
  app.get("/readyz", (_req, res) => void answerReadiness(options, res));
  const hashedAssets = { immutable: true, maxAge: "1y" };
  app.use(build.publicPath, precompressedAssets(path.resolve(build.assetsBuildDirectory), hashedAssets));
  app.use(compression());
  app.use(build.publicPath, express.static(path.resolve(build.assetsBuildDirectory), { ...hashedAssets, index: false, redirect: false }));
  const publicFiles = express.static(path.resolve(options.publicDirectory ?? "public"), { maxAge: "1h", index: false, redirect: false });
  // Every file in public/ has an extension; a page's path (no extension) skips the file lookup it could never match.
  app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));

  const sharedCache = options.sharedCache === false ? null : (options.sharedCache ?? new SharedCache());
  // A catalogue change of any process (the desk, a CSV import, a sale's start or end) empties it: no old price is answered from it.
  if (sharedCache) options.store.catalogWatch.onChange(() => sharedCache.clear());
  app.all("*", (req, res, next) => {
    const state = stateOf(res);
    state.cspNonce = randomBytes(16).toString("base64");
    const key = sharedCache?.keyOf(req.method, req.url, req.headers);
    const cached = key
      ? sharedCache?.answer(key, { nonce: state.cspNonce, method: req.method, ifNoneMatch: req.headers["if-none-match"] })
      : undefined;
    if (key && options.requestMetrics) sharedCacheLookups.inc({ result: cached ? "hit" : "miss" });
    if (!cached) return next();
    res.statusCode = cached.status;
    useOwnHeaders(res, cached.headers);
    for (const [name, value] of cached.headers) res.setHeader(name, value);
    res.setHeader(CACHE_ANSWER_HEADER, "shared" satisfies CacheAnswer);
    if (cached.body.length === 0) return void res.end();
    res.setHeader(
      "content-length",
      cached.body.reduce((sum, part) => sum + part.length, 0),
    );
    for (const part of cached.body) res.write(part);
    res.end();
  });
  app.use(limitRequestBody());
  app.all("*", remixRequestHandler(options, sharedCache));

  app.use((error: unknown, req: ExpressRequest, res: ExpressResponse, _next: NextFunction) => {
    // A client's mistake found by a middleware (a malformed path for the static files...): its status, no stack.
    const status = (error as { status?: unknown }).status;
    if (typeof status === "number" && status >= 400 && status < 500 && !res.headersSent)
      return plain(res, status, STATUS_CODES[status] ?? "Bad Request");
    logError("request failed in the server", error, { requestId: String(req.id), method: req.method, path: req.path });
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

/**
 * Remix, through the official Express adapter's request and response (@remix-run/express: the
 * request's URL from req.protocol and req.hostname, its headers, its body as a stream, aborted
 * when the client leaves; the response written with back-pressure). Between the two the server
 * does what needs the Response itself: the cache rule for pages, their `.data` and resource
 * routes alike (a response to a request with a cookie is never public: it shows the cart), and
 * keeping a public answer in the shared cache (ADR 013).
 */
function remixRequestHandler(options: StoreAppOptions, sharedCache: SharedCache | null): RequestHandler {
  const { build, store, config } = options;
  const handleRequest = createRequestHandler(build, build.mode);
  // One per process, as the shared cache: what a part was drawn from is its key (decision 031).
  const markupCache = createMarkupCache();
  return async (req, res, next) => {
    let request: Request | undefined;
    const cacheGeneration = sharedCache?.generation;
    try {
      request = neutralizeCrossSiteOrigin(createRemixRequest(req, res));
      const context: AppLoadContext = {
        store,
        clientAddress: clientAddressOf(req, config),
        requestId: String(req.id),
        cspNonce: stateOf(res).cspNonce,
        markupCache,
      };
      if (options.requestMetrics) markRenderStart(res);
      // What the request does (loaders, actions, the jobs and emails they queue) logs and carries its id (app/observability/request-context.server.ts).
      const routed = request;
      let response = await withRequestId(context.requestId, () => handleRequest(routed, context));
      // Already answered (413 mid-body) or the client left: nothing more to write.
      if (res.headersSent || res.destroyed) return void (await response.body?.cancel().catch(() => undefined));
      const isPublic = applyCachePolicy(build, request, response.status, response.headers);
      const key = sharedCache?.keyOf(req.method, req.url, req.headers);
      if (key && sharedCache && isPublic && req.method === "GET" && sharedCache.storable(response.status, response.headers)) {
        const body = Buffer.from(await response.arrayBuffer());
        const headers = new Headers(response.headers);
        headers.set("ETag", sharedCache.store(key, headers, body, stateOf(res).cspNonce, cacheGeneration));
        response = new Response(body, { status: response.status, statusText: response.statusText, headers });
      }
      useOwnHeaders(res, response.headers);
      // A request that took this long may end after the shutdown began.
      closeWhenDraining(options, res);
      const pipeDocument = takeDocumentPipe(response);
      if (pipeDocument) sendPipedDocument(res, response, pipeDocument);
      else await sendRemixResponse(res, response);
    } catch (error) {
      // The client left (Remix stops with the abort's reason): nothing went wrong here.
      if (request?.signal.aborted) return void (res.headersSent || res.destroy());
      next(error);
    }
  };
}

/** The client's address: the connection's, or the one the trusted proxies say (app/http/client-address.ts). */
function clientAddressOf(req: IncomingMessage, config: Pick<Config, "TRUSTED_PROXIES">): string {
  return resolveClientAddress({
    socketAddress: req.socket.remoteAddress,
    forwardedFor: req.headers["x-forwarded-for"],
    trustedProxies: config.TRUSTED_PROXIES,
  });
}

/** Warnings that may come in bursts (an attack), logged once and then counted. */
function quietWarnings(options: StoreAppOptions) {
  const serverLog = options.logger ?? logger;
  const refusals = quietCounter((msg, fields) => serverLog.warn(fields, msg));
  return (msg: string, fields: Record<string, unknown>) => refusals.count(msg, fields);
}

/** A page React renders straight into the response (app/http/piped-document.server.ts): the status and headers, then React's bytes. */
function sendPipedDocument(res: ExpressResponse, response: Response, pipeDocument: PipeDocument) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  pipeDocument(res);
}

/** The HTTP server: the app, and the refusals Node makes before the app sees a request. */
export function createStoreServer(options: StoreAppOptions): Server {
  const app = createStoreApp(options);
  const limits = connectionLimitsFor(options.config);
  const server = createServer(serverTimeouts(limits), app);
  const serverLog = options.logger ?? logger;
  capConnections(server, limits, (msg, fields) => serverLog.warn(fields, msg));
  refuseWhatNeverReachesExpress(server, headersSetBy(securityHeaders(options.config)));
  // A client that asks before sending its body (Expect: 100-continue) is told to go on only when the body will be taken.
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    const target = requestPath(req.url);
    const declared = declaredLength(req.headers["content-length"]);
    const refused =
      !isAppMethod(req.method) ||
      target === null ||
      Number.isNaN(declared) ||
      (declared !== null && declared > bodyLimitOf(req, new URL(target, "http://x").pathname));
    if (!refused) res.writeContinue();
    app(req, res);
  });
  return server;
}

/**
 * Method, Host, request target (an old `?_data=` request too) and declared body size: refused before anything else runs. An
 * absolute-form target ("http://host/a?b", what proxies send) is reduced to its path, so every
 * later step, the Remix adapter's URL included, sees the path and the validated Host.
 */
function refuseEarly(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
  if (!isAppMethod(req.method)) {
    res.setHeader("Allow", ALLOWED_METHODS);
    return plain(res, 405, "Method Not Allowed", { close: true });
  }
  const target = requestPath(req.url);
  if (!isValidHost(req.headers.host) || target === null) return plain(res, 400, "Bad Request", { close: true });
  req.url = req.originalUrl = target;
  if (isOldDataRequest(target)) return plain(res, 400, "Bad Request: this store answers data requests at /page.data, not ?_data=");
  if (req.method !== "GET" && req.method !== "HEAD") {
    const declared = declaredLength(req.headers["content-length"]);
    if (Number.isNaN(declared)) return plain(res, 400, "Bad Request", { close: true });
    const limit = bodyLimitOf(req, req.path);
    if (declared !== null && declared > limit) return answerTooLarge(req, res, limit);
  }
  next();
}

/** Shutting down: this answer is the connection's last. */
function closeWhenDraining(options: StoreAppOptions, res: ServerResponse) {
  if (options.isClosing?.()) res.setHeader("Connection", "close");
}

function plain(res: ServerResponse, status: number, message: string, { close = false }: { close?: boolean } = {}) {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/plain; charset=utf-8");
  res.setHeader("Cache-Control", "no-store");
  if (close) res.setHeader("Connection", "close");
  res.end(`${message}\n`);
}
