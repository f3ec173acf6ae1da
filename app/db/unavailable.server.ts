import { log, logError } from "~/observability/logger.server";

/**
 * When PostgreSQL cannot be reached (restarted, connections killed, network
 * gone), every query fails the same way: the request cannot be served now but
 * will be in a moment. Such a failure is turned into a 503 Response, which
 * Remix shows with the store's error page ("We'll be right back") and
 * `Retry-After`, instead of a 500 with a stack trace. Nothing else changes: the
 * pool reconnects by itself on the next query once the server is back.
 */

export const DATABASE_RETRY_AFTER_SECONDS = 30;
const UNAVAILABLE_MESSAGE = "The store is briefly unavailable. Please try again in a minute.";

/** postgres.js and Node socket codes that mean "no connection", not "bad query". */
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** SQLSTATEs a server sends while it shuts down, starts or is full (class 08: connection exception). */
function isUnavailableSqlState(code: string): boolean {
  return code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300";
}

/** Whether this error (or one it wraps, e.g. drizzle's DrizzleQueryError) says the database could not be reached. */
export function isDatabaseUnavailableError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof DatabaseUnavailable) return true;
    if (typeof current !== "object") return false;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && isUnavailableSqlState(code))))
      return true;
    // AggregateError (a connect to every address failed)
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => isDatabaseUnavailableError(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The 503 a loader or action throws when the database cannot be reached. A
 * Response, so Remix answers with its status and the error boundary draws the
 * store's 503 page; `cause` keeps the driver's error for the log.
 */
export class DatabaseUnavailable extends Response {
  readonly cause: unknown;
  readonly message: string;

  constructor(cause: unknown) {
    super(UNAVAILABLE_MESSAGE, {
      status: 503,
      statusText: "Service Unavailable",
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS),
        "Cache-Control": "no-store",
      },
    });
    this.cause = cause;
    this.message = `Database unavailable: ${describe(cause)}`;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = error.cause instanceof Error ? error.cause : null;
  const code = (inner ?? error) as { code?: unknown };
  return `${(inner ?? error).message}${typeof code.code === "string" ? ` (${code.code})` : ""}`;
}

/** One line when an outage starts, one per 10 s while it lasts, one when it ends: not a stack trace per request. */
class OutageLog {
  private since: number | null = null;
  private lastLine = 0;
  private refused = 0;

  failed(error: unknown) {
    const now = Date.now();
    this.refused++;
    if (this.since === null) {
      this.since = now;
      this.lastLine = now;
      logError("Database unavailable, answering 503", error);
    } else if (now - this.lastLine >= 10_000) {
      this.lastLine = now;
      logError(`Database still unavailable after ${Math.round((now - this.since) / 1000)} s (${this.refused} queries refused)`, error);
    }
  }

  succeeded() {
    if (this.since === null) return;
    log("info", `Database reachable again after ${Math.round((Date.now() - this.since) / 1000)} s (${this.refused} queries refused).`);
    this.since = null;
    this.refused = 0;
  }
}

interface PreparedLike {
  execute(...args: unknown[]): Promise<unknown>;
  all(...args: unknown[]): Promise<unknown>;
}

interface SessionLike {
  prepareQuery(...args: unknown[]): PreparedLike;
  transaction(...args: unknown[]): Promise<unknown>;
}

/**
 * Makes every query of this drizzle database (query builders, `db.query`,
 * `db.execute`, transactions) throw a DatabaseUnavailable for a connection
 * failure. It wraps the one session object all of them share; every other
 * error passes through untouched. tests/integration/database-unavailable.test.ts
 * checks each entry point against a server that refuses connections.
 */
export function guardAvailability<T extends object>(db: T): T {
  const session = (db as unknown as { session?: SessionLike }).session;
  if (!session || typeof session.prepareQuery !== "function" || typeof session.transaction !== "function") {
    throw new Error("guardAvailability: this drizzle version has no session to wrap");
  }
  const log = new OutageLog();
  const guard = <R>(promise: Promise<R>): Promise<R> =>
    promise.then(
      (result) => {
        log.succeeded();
        return result;
      },
      (error: unknown) => {
        if (error instanceof DatabaseUnavailable || !isDatabaseUnavailableError(error)) throw error;
        log.failed(error);
        throw new DatabaseUnavailable(error);
      },
    );
  const prepareQuery = session.prepareQuery.bind(session);
  const transaction = session.transaction.bind(session);
  session.prepareQuery = (...args: unknown[]) => {
    const prepared = prepareQuery(...args);
    const execute = prepared.execute.bind(prepared);
    const all = prepared.all.bind(prepared);
    prepared.execute = (...inner: unknown[]) => guard(execute(...inner));
    prepared.all = (...inner: unknown[]) => guard(all(...inner));
    return prepared;
  };
  session.transaction = (...args: unknown[]) => guard(transaction(...args));
  return db;
}
