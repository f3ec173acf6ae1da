CREATE TABLE "payment_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"checkout_token" text NOT NULL,
	"method" text NOT NULL,
	"provider" text NOT NULL,
	"reference" text,
	"amount_cents" bigint NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"status" text DEFAULT 'started' NOT NULL,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_attempts_status_valid" CHECK ("payment_attempts"."status" in ('started', 'approved', 'declined')),
	CONSTRAINT "payment_attempts_amount_positive" CHECK ("payment_attempts"."amount_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "checkouts" ALTER COLUMN "subtotal_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "checkouts" ALTER COLUMN "shipping_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "checkouts" ALTER COLUMN "discount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "checkouts" ALTER COLUMN "total_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "subtotal_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "shipping_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "discount_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "total_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "price_cents" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "test_payments" ALTER COLUMN "amount_cents" SET DATA TYPE bigint;--> statement-breakpoint
-- Every order recorded before real payment drivers existed was paid on the offline test page.
ALTER TABLE "orders" ADD COLUMN "payment_provider" text DEFAULT 'test' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "payment_provider" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_attempts_provider_reference_key" ON "payment_attempts" USING btree ("provider","reference");--> statement-breakpoint
CREATE INDEX "payment_attempts_checkout_idx" ON "payment_attempts" USING btree ("checkout_token");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_checkout_token_key" ON "orders" USING btree ("checkout_token");