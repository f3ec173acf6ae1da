/**
 * Raw access under drizzle for the developer scripts: run a parameterized
 * statement on whichever driver is behind a DatabaseHandle, and record the
 * SQL drizzle sends (to EXPLAIN exactly what the app runs).
 */
import type { DatabaseHandle } from "../../app/db/database.server";

type PgliteClient = { query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> };
type PostgresClient = { unsafe(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]> };

/** Runs `sql` with `$1..$n` parameters and returns the rows as objects. */
export async function rawQuery(handle: DatabaseHandle, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = (handle.db as unknown as { $client: unknown }).$client;
  if (handle.kind === "pglite") return (await (client as PgliteClient).query(sql, params)).rows;
  return [...(await (client as PostgresClient).unsafe(sql, params as never[]))];
}

export interface CapturedQuery {
  sql: string;
  params: unknown[];
}

type Logger = { logQuery(query: string, params: unknown[]): void };

/**
 * Calls `run` while recording every statement drizzle prepares on `handle.db`
 * (through the session's logger, which both drivers call before executing).
 */
export async function captureQueries(handle: DatabaseHandle, run: () => Promise<unknown>): Promise<CapturedQuery[]> {
  const session = (handle.db as unknown as { session: { logger: Logger } }).session;
  const previous = session.logger;
  const captured: CapturedQuery[] = [];
  session.logger = { logQuery: (sql, params) => captured.push({ sql, params: [...params] }) };
  try {
    await run();
  } finally {
    session.logger = previous;
  }
  return captured;
}
