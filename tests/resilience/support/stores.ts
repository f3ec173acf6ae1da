import { openDatabase } from "~/db/database.server";
import { createStaffAccount } from "~/staff/accounts.server";
import { startStoreServer, type StoreServer } from "../../e2e/support/store-server";
import { createScratchDatabase, type ScratchDatabase } from "./databases";
import { startTcpProxy, type TcpProxy } from "./tcp-proxy";

/** An owner: the tests change prices on the catalogue desk. */
export const STAFF = { email: "ops@example.com", password: "resilience-staff-password-01", role: "owner" } as const;

/**
 * A production store process on the given PostgreSQL database, started by the
 * same helper as the e2e specs' extra servers (tests/e2e/support/store-server.ts),
 * so the server command lives in one place.
 */
export function startStore(
  databaseUrl: string,
  options: { publicBaseUrl?: string; env?: Record<string, string> } = {},
): Promise<StoreServer> {
  return startStoreServer({
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    // Behind the test's balancer: one proxy hop in front of the store.
    TRUSTED_PROXIES: "1",
    // Every simulated shopper comes from 127.0.0.1: per-address rate limits are scaled up so the load
    // and fault tests measure the store, not the limiter. The several-servers test sets it back to 1.
    RATE_LIMIT_SCALE: "1000",
    // The load tests buy hundreds of the same few products: stock that never runs out unless a test says so.
    STOCK_DEFAULT_ON_HAND: "1000000",
    ...(options.publicBaseUrl ? { PUBLIC_BASE_URL: options.publicBaseUrl } : {}),
    ...options.env,
  });
}

/**
 * Migrates the database and creates a staff account before any store starts,
 * so several processes never race to migrate or to load the catalog.
 */
export async function prepareDatabase(databaseUrl: string): Promise<void> {
  const handle = await openDatabase({ url: databaseUrl });
  try {
    await handle.migrate();
    await createStaffAccount(handle.db, STAFF);
  } finally {
    await handle.close();
  }
}

export interface ProxiedStore {
  database: ScratchDatabase;
  /** Between the store and PostgreSQL: cut, stall and restore it to inject an outage. */
  proxy: TcpProxy;
  store: StoreServer;
  /** Stops the store, closes the proxy and drops the database. */
  stop(): Promise<void>;
}

/** A prepared scratch database and one store process reaching it through a TCP proxy the test controls. */
export async function startStoreBehindProxy(label: string): Promise<ProxiedStore> {
  const database = await createScratchDatabase(undefined, label);
  await prepareDatabase(database.url);
  const target = new URL(database.url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const store = await startStore(proxy.urlFor(database.url));
  return {
    database,
    proxy,
    store,
    async stop() {
      await store.stop();
      await proxy.close();
      await database.drop();
    },
  };
}
