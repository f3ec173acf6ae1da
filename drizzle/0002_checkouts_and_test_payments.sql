CREATE TABLE "checkouts" (
	"token" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"customer" jsonb NOT NULL,
	"items" jsonb NOT NULL,
	"subtotal_cents" integer NOT NULL,
	"shipping_cents" integer NOT NULL,
	"discount_cents" integer DEFAULT 0 NOT NULL,
	"total_cents" integer NOT NULL,
	"promo_code" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"order_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkouts_kind_valid" CHECK ("checkouts"."kind" in ('cart', 'single', 'seasoning')),
	CONSTRAINT "checkouts_status_valid" CHECK ("checkouts"."status" in ('pending', 'paid')),
	CONSTRAINT "checkouts_money_non_negative" CHECK ("checkouts"."subtotal_cents" >= 0 and "checkouts"."shipping_cents" >= 0 and "checkouts"."discount_cents" >= 0 and "checkouts"."total_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "test_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"checkout_token" text NOT NULL,
	"method" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_payments_status_valid" CHECK ("test_payments"."status" in ('pending', 'approved', 'declined')),
	CONSTRAINT "test_payments_amount_non_negative" CHECK ("test_payments"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE INDEX "test_payments_checkout_idx" ON "test_payments" USING btree ("checkout_token");