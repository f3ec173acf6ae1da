/**
 * The store's log: one JSON object per line, on stdout (info) or stderr
 * (warn, error). The HTTP server writes one line per request with it, and the
 * app logs its errors with it, each once, with its cause chain.
 *
 * Nothing a shopper typed goes in: callers pass ids, paths without query
 * strings, statuses and timings. As a last guard, fields whose names smell of
 * secrets or personal data are replaced by "[redacted]".
 */
export type LogLevel = "info" | "warn" | "error";
export type LogFields = Record<string, unknown>;

const SENSITIVE_FIELD = /pass(word)?|secret|token|cookie|authori[sz]ation|api[-_]?key|card|cvc|email|phone|address(?!ed)|street|zip/i;

export function log(level: LogLevel, msg: string, fields: LogFields = {}): void {
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...redacted(fields) });
  // Through console so the test suite's console.error guard still sees errors.
  if (level === "info") console.log(line);
  else if (level === "warn") console.warn(line);
  else console.error(line);
}

/** An error, once, with its cause chain and stack. */
export function logError(msg: string, error: unknown, fields: LogFields = {}): void {
  log("error", msg, { ...fields, error: serializeError(error) });
}

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
