CREATE TABLE "tax_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" text NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"reference" text NOT NULL,
	"mode" text,
	"provider" text NOT NULL,
	"state" text NOT NULL,
	"tax_cents" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"lines" jsonb NOT NULL,
	"shipping_cents" bigint DEFAULT 0 NOT NULL,
	"shipping_tax_cents" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_transaction_id" text,
	"provider_line_items" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"recorded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_transactions_kind_valid" CHECK ("tax_transactions"."kind" in ('commit', 'reversal')),
	CONSTRAINT "tax_transactions_status_valid" CHECK ("tax_transactions"."status" in ('pending', 'recorded', 'failed')),
	CONSTRAINT "tax_transactions_mode_valid" CHECK ("tax_transactions"."mode" is null or "tax_transactions"."mode" in ('full', 'partial')),
	CONSTRAINT "tax_transactions_money_non_negative" CHECK ("tax_transactions"."tax_cents" >= 0 and "tax_transactions"."amount_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "tax_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "tax" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax" jsonb;--> statement-breakpoint
ALTER TABLE "tax_transactions" ADD CONSTRAINT "tax_transactions_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_transactions_source_key" ON "tax_transactions" USING btree ("source");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_transactions_reference_key" ON "tax_transactions" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "tax_transactions_order_idx" ON "tax_transactions" USING btree ("order_id","created_at");--> statement-breakpoint
CREATE INDEX "tax_transactions_due_idx" ON "tax_transactions" USING btree ("next_attempt_at") WHERE "tax_transactions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "tax_transactions_report_idx" ON "tax_transactions" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "checkouts" ADD CONSTRAINT "checkouts_tax_non_negative" CHECK ("checkouts"."tax_cents" >= 0);--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_tax_non_negative" CHECK ("orders"."tax_cents" >= 0);