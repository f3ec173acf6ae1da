import pino, { type DestinationStream, type Logger } from "pino";
import { currentRequestId } from "./request-context.server";

/**
 * The store's log: pino, one JSON object per line, `time` (ISO), `level`
 * ("info", "warn", "error"), `msg` and the fields; info on stdout, warnings
 * and errors on stderr. The HTTP server writes one line per request with it
 * (server/request-log.ts), and the app logs its errors with it,
 * each once, with its cause chain.
 *
 * Nothing a shopper typed goes in: callers pass ids, paths without query
 * strings, statuses and timings. As a last guard, fields whose names smell of
 * secrets or personal data are replaced by "[redacted]".
 */
export type LogLevel = "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

const SENSITIVE_FIELD = /pass(word)?|secret|token|cookie|authori[sz]ation|api[-_]?key|card|cvc|email|phone|address(?!ed)|street|zip/i;

/** A logger in the store's format, writing to `destination` (tests pass one that keeps the lines). */
export function createLogger(destination: DestinationStream): Logger {
  return pino(
    {
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** The process's logger. */
export const logger = createLogger(
  pino.multistream(
    [
      { level: "info", stream: process.stdout },
      { level: "warn", stream: process.stderr },
    ],
    { dedupe: true },
  ),
);

/** A line of the app's; written for a request (or a job a request queued), it carries that `requestId` unless the caller named one. */
export function log(level: LogLevel, msg: string, fields: LogFields = {}): void {
  const requestId = currentRequestId();
  logger[level](redacted(requestId === undefined || "requestId" in fields ? fields : { requestId, ...fields }), msg);
}

/** An error, once, with its cause chain and stack (`error` left out: a message of its own). */
export function logError(msg: string, error?: unknown, fields: LogFields = {}): void {
  log("error", msg, error === undefined ? fields : { ...fields, error: serializeError(error) });
}

/** The store's log for the modules that take a console-like logger (tests hand them their own). */
export const storeLog: Pick<Console, "error" | "warn"> = {
  error: (msg: string, error?: unknown) => logError(String(msg), error),
  warn: (msg: string, error?: unknown) => log("warn", String(msg), error === undefined ? {} : { error: serializeError(error) }),
};

export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
  cause?: SerializedError;
}

export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { name: typeof error, message: String(error).slice(0, 500) };
  const serialized: SerializedError = { name: error.name, message: error.message };
  if (error.stack) serialized.stack = error.stack;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") serialized.code = code;
  if (error.cause !== undefined && depth < 5) serialized.cause = serializeError(error.cause, depth + 1);
  return serialized;
}

function redacted(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = SENSITIVE_FIELD.test(key) ? "[redacted]" : value;
  }
  return out;
}
