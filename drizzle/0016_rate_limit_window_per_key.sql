-- Rate-limit windows now start at a subject's first hit: one row per key. The counters are ephemeral
-- (at most a window's worth of hits), so they are emptied rather than merged.
DELETE FROM "rate_limit_counters";--> statement-breakpoint
ALTER TABLE "rate_limit_counters" DROP CONSTRAINT "rate_limit_counters_key_window_start_pk";--> statement-breakpoint
ALTER TABLE "rate_limit_counters" ADD PRIMARY KEY ("key");
