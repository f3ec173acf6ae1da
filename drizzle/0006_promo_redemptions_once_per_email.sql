CREATE TABLE "promo_redemptions" (
	"code" text NOT NULL,
	"email" text NOT NULL,
	"order_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "promo_redemptions_code_email_key" ON "promo_redemptions" USING btree ("code","email");--> statement-breakpoint
-- Orders already paid with a code count as that email's first use.
INSERT INTO "promo_redemptions" ("code", "email", "order_id", "created_at")
SELECT DISTINCT ON (upper("promo_code"), lower(trim("customer"->>'email'))) upper("promo_code"), lower(trim("customer"->>'email')), "order_id", "created_at"
FROM "checkouts"
WHERE "status" = 'paid' AND "promo_code" IS NOT NULL AND "order_id" IS NOT NULL
ORDER BY upper("promo_code"), lower(trim("customer"->>'email')), "created_at"
ON CONFLICT DO NOTHING;
