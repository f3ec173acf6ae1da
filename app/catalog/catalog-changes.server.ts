import { and, isNotNull, or, sql } from "drizzle-orm";
import type { Database, DatabaseHandle } from "~/db/database.server";
import { products } from "~/db/schema";
import { logError } from "~/observability/logger.server";
import { forgetCatalogCaches } from "./queries.server";

/**
 * How every store process sees a catalogue change at once (ADR 029). A change (the catalogue desk, its CSV
 * import, a catalogue load) NOTIFYs `catalog_changed` in its own transaction, so PostgreSQL tells every
 * listening process when, and only if, it commits. Each process then forgets its catalogue memos and
 * whatever else keeps catalogue answers (the server's shared HTTP cache subscribes with `onChange`). A sale
 * starts or ends at a time, not by a change: each process also wakes at the next sale start or end, by the
 * database's clock, and does the same. A listening connection that was lost and reopened counts as a change
 * (notifications may have been missed while it was gone).
 */

export const CATALOG_CHANNEL = "catalog_changed";
/** Looked at again at least this often, whatever the next sale time (timers of days are not kept). */
const LONGEST_WAIT_MS = 60 * 60 * 1000;
/** After a sale's time by the database's clock: a page made at the instant itself could still show the old price. */
const AFTER_BOUNDARY_MS = 25;

/** Inside the transaction that changes the catalogue: delivered to every process once it commits. */
export async function announceCatalogChange(tx: Pick<Database, "execute">): Promise<void> {
  await tx.execute(sql`select pg_notify(${CATALOG_CHANNEL}, '')`);
}

export interface CatalogWatch {
  /** Runs `listener` after each change seen by this process; returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  stop(): Promise<void>;
}

/** For a runtime that watches nothing (tests that call routes): changes made in the process still empty its memos. */
export const NO_CATALOG_WATCH: CatalogWatch = { onChange: () => () => {}, stop: async () => {} };

/** Milliseconds from the database's now to the next sale start or end, or null when none is ahead. */
async function untilNextSaleTime(db: Database): Promise<number | null> {
  // A sale not started yet changes at its start (its end comes after); a running one at its end.
  const next = sql`min(case when ${products.saleStartsAt} > now() then ${products.saleStartsAt} else ${products.saleEndsAt} end)`;
  const [row] = await db
    .select({ ms: sql<string | number | null>`extract(epoch from (${next} - now())) * 1000` })
    .from(products)
    .where(
      and(
        isNotNull(products.salePriceCents),
        or(sql`${products.saleStartsAt} > now()`, sql`${products.saleEndsAt} > now()`),
      ),
    );
  return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
}

export async function watchCatalog(database: DatabaseHandle): Promise<CatalogWatch> {
  const listeners = new Set<() => void>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const schedule = async () => {
    if (stopped) return;
    try {
      const ms = await untilNextSaleTime(database.db);
      clearTimeout(timer);
      if (stopped) return;
      timer = setTimeout(changed, ms === null ? LONGEST_WAIT_MS : Math.min(Math.max(0, ms) + AFTER_BOUNDARY_MS, LONGEST_WAIT_MS));
      timer.unref();
    } catch (error) {
      logError("Catalogue watch: the next sale time could not be read", error);
    }
  };

  function changed() {
    forgetCatalogCaches(database.db);
    for (const listener of listeners) listener();
    void schedule();
  }

  const unlisten = await database.listen(CATALOG_CHANNEL, changed, changed);
  await schedule();
  return {
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await unlisten().catch(() => {});
    },
  };
}
