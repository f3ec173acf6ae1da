import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { parseConfig, type Config } from "../app/config.server";
import { answerAndClose } from "./body-limit";
import { declaredLength } from "./guards";

/**
 * Bounded work per process for request bodies still arriving (issue 40). A
 * POST whose body is on its way holds about 36 KB of heap in Remix's request
 * and streams, so thousands of bodies sent a byte a second would fill the
 * heap. Two rules, as Kestrel's MinRequestBodyDataRate and caps:
 *
 * - a budget of bodies in flight, in all and per client address (IPv6: per
 *   /64): past it, 503 with Retry-After and the connection closed;
 * - a minimum data rate: once the grace is over, a body must have arrived at
 *   `minBytesPerSecond` on average since its request began (counted at the
 *   socket, whether or not the app is reading), or it gets 408 and its
 *   connection is closed.
 *
 * A body counts from its request's headers until it has arrived whole (or its
 * answer is sent), which for a form from a shopper is a few milliseconds.
 */
export interface BodyBudget {
  maxInFlight: number;
  maxInFlightPerAddress: number;
  minBytesPerSecond: number;
  graceMs: number;
}

type BodyBudgetKeys = "MAX_BODIES_IN_FLIGHT" | "MAX_BODIES_IN_FLIGHT_PER_ADDRESS" | "MIN_BODY_BYTES_PER_SECOND" | "BODY_GRACE_MS";

export type BodyBudgetSettings = Partial<Pick<Config, BodyBudgetKeys>>;

/** The budget from the configuration (keys left out take the configuration's defaults). */
export function bodyBudgetFor(settings: BodyBudgetSettings): BodyBudget {
  const defaults = parseConfig({});
  return {
    maxInFlight: settings.MAX_BODIES_IN_FLIGHT ?? defaults.MAX_BODIES_IN_FLIGHT,
    maxInFlightPerAddress: settings.MAX_BODIES_IN_FLIGHT_PER_ADDRESS ?? defaults.MAX_BODIES_IN_FLIGHT_PER_ADDRESS,
    minBytesPerSecond: settings.MIN_BODY_BYTES_PER_SECOND ?? defaults.MIN_BODY_BYTES_PER_SECOND,
    graceMs: settings.BODY_GRACE_MS ?? defaults.BODY_GRACE_MS,
  };
}

type Refusal = "too many bodies in flight" | "too many bodies in flight from one address" | "request body too slow";

interface BodyInFlight {
  req: IncomingMessage;
  res: ServerResponse;
  address: string;
  startedAt: number;
  bytesReadBefore: number;
}

/** How often bodies in flight are checked against the minimum rate. */
const RATE_CHECK_INTERVAL_MS = 1_000;

export function budgetRequestBodies(
  budget: BodyBudget,
  addressOf: (req: IncomingMessage) => string,
  onRefusal: (reason: Refusal, fields: Record<string, unknown>) => void,
): RequestHandler {
  const inFlight = new Set<BodyInFlight>();
  const perAddress = new Map<string, number>();
  let rateCheck: NodeJS.Timeout | undefined;

  const release = (body: BodyInFlight) => {
    if (!inFlight.delete(body)) return;
    const left = (perAddress.get(body.address) ?? 1) - 1;
    if (left > 0) perAddress.set(body.address, left);
    else perAddress.delete(body.address);
    if (inFlight.size === 0) {
      clearInterval(rateCheck);
      rateCheck = undefined;
    }
  };

  const checkRates = () => {
    const now = Date.now();
    for (const body of inFlight) {
      if (body.req.complete) release(body);
      else if (isTooSlow(body, now, budget)) {
        release(body);
        onRefusal("request body too slow", { address: body.address, minBytesPerSecond: budget.minBytesPerSecond });
        answerAndClose(body.req, body.res, 408, "Request Timeout: the request body arrived too slowly.\n");
      }
    }
  };

  return (req, res, next) => {
    if (!carriesBody(req) || req.complete) return next();
    const address = addressOf(req);
    const fromAddress = perAddress.get(address) ?? 0;
    if (inFlight.size >= budget.maxInFlight || fromAddress >= budget.maxInFlightPerAddress) {
      const reason = inFlight.size >= budget.maxInFlight ? "too many bodies in flight" : "too many bodies in flight from one address";
      onRefusal(reason, { address, limit: reason === "too many bodies in flight" ? budget.maxInFlight : budget.maxInFlightPerAddress });
      res.setHeader("Retry-After", String(Math.ceil(budget.graceMs / 1000)));
      return answerAndClose(req, res, 503, "Service Unavailable: too many uploads are under way; try again in a few seconds.\n");
    }
    const body: BodyInFlight = { req, res, address, startedAt: Date.now(), bytesReadBefore: req.socket.bytesRead };
    inFlight.add(body);
    perAddress.set(address, fromAddress + 1);
    rateCheck ??= setInterval(checkRates, RATE_CHECK_INTERVAL_MS).unref();
    const done = () => release(body);
    req.once("end", done);
    req.once("close", done);
    res.once("close", done);
    next();
  };
}

function carriesBody(req: IncomingMessage): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const declared = declaredLength(req.headers["content-length"]);
  return declared !== null && declared > 0;
}

function isTooSlow(body: BodyInFlight, now: number, budget: BodyBudget): boolean {
  const elapsedMs = now - body.startedAt;
  if (elapsedMs < budget.graceMs) return false;
  const arrived = (body.req.socket?.bytesRead ?? body.bytesReadBefore) - body.bytesReadBefore;
  return arrived < (budget.minBytesPerSecond * elapsedMs) / 1000;
}
