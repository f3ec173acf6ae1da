CREATE TABLE "product_stock" (
	"product_key" text PRIMARY KEY NOT NULL,
	"policy" text DEFAULT 'tracked' NOT NULL,
	"on_hand" integer DEFAULT 0 NOT NULL,
	"reserved" integer DEFAULT 0 NOT NULL,
	"lead_time" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_stock_policy_valid" CHECK ("product_stock"."policy" in ('tracked', 'made-to-order')),
	CONSTRAINT "product_stock_counts_valid" CHECK ("product_stock"."reserved" >= 0 and "product_stock"."on_hand" >= "product_stock"."reserved")
);
--> statement-breakpoint
CREATE TABLE "stock_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_key" text NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmation_sent_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	CONSTRAINT "stock_alerts_status_valid" CHECK ("stock_alerts"."status" in ('pending', 'confirmed', 'sent', 'unsubscribed'))
);
--> statement-breakpoint
CREATE TABLE "stock_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"checkout_token" text NOT NULL,
	"product_key" text NOT NULL,
	"quantity" integer NOT NULL,
	"status" text DEFAULT 'held' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_holds_status_valid" CHECK ("stock_holds"."status" in ('held', 'allocated', 'released')),
	CONSTRAINT "stock_holds_quantity_positive" CHECK ("stock_holds"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" serial PRIMARY KEY NOT NULL,
	"product_key" text NOT NULL,
	"delta" integer NOT NULL,
	"on_hand_after" integer NOT NULL,
	"reason" text NOT NULL,
	"actor" text NOT NULL,
	"order_id" text,
	"source" text,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "product_stock_low_idx" ON "product_stock" USING btree ("on_hand");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_alerts_product_email_key" ON "stock_alerts" USING btree ("product_key",lower("email"));--> statement-breakpoint
CREATE INDEX "stock_alerts_waiting_idx" ON "stock_alerts" USING btree ("product_key") WHERE "stock_alerts"."status" = 'confirmed';--> statement-breakpoint
CREATE UNIQUE INDEX "stock_holds_live_key" ON "stock_holds" USING btree ("checkout_token","product_key") WHERE "stock_holds"."status" = 'held';--> statement-breakpoint
CREATE INDEX "stock_holds_due_idx" ON "stock_holds" USING btree ("expires_at") WHERE "stock_holds"."status" = 'held';--> statement-breakpoint
CREATE INDEX "stock_movements_product_idx" ON "stock_movements" USING btree ("product_key","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_movements_source_key" ON "stock_movements" USING btree ("source","product_key");