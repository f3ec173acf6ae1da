ALTER TABLE "after_sale_requests" ADD COLUMN "label_cost_cents" bigint;--> statement-breakpoint
ALTER TABLE "after_sale_requests" ADD CONSTRAINT "after_sale_requests_label_cost_non_negative" CHECK ("after_sale_requests"."label_cost_cents" is null or "after_sale_requests"."label_cost_cents" >= 0);--> statement-breakpoint
-- Labels bought before the column kept their cost only in the history's prose ("cost $12.34"): read once, here.
UPDATE "after_sale_requests" AS r SET "label_cost_cents" = (
  SELECT (replace(m[1], ',', '')::bigint * 100 + m[2]::bigint)
  FROM "after_sale_events" AS e, regexp_match(e."detail", 'cost \$([0-9,]+)\.([0-9]{2})') AS m
  WHERE e."request_id" = r."id" AND e."action" = 'return label bought' AND m IS NOT NULL
  ORDER BY e."id" LIMIT 1
) WHERE r."label_cost_cents" IS NULL AND EXISTS (
  SELECT 1 FROM "after_sale_events" AS e WHERE e."request_id" = r."id" AND e."action" = 'return label bought'
);
