CREATE TABLE "order_status_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"staff_email" text NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_status_changes_from_valid" CHECK ("order_status_changes"."from_status" in ('Approved', 'Packed', 'Shipped', 'Cancelled')),
	CONSTRAINT "order_status_changes_to_valid" CHECK ("order_status_changes"."to_status" in ('Approved', 'Packed', 'Shipped', 'Cancelled'))
);
--> statement-breakpoint
CREATE TABLE "staff_login_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "order_status_changes" ADD CONSTRAINT "order_status_changes_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_status_changes_order_idx" ON "order_status_changes" USING btree ("order_id","changed_at");--> statement-breakpoint
CREATE INDEX "staff_login_attempts_key_idx" ON "staff_login_attempts" USING btree ("key","attempted_at");--> statement-breakpoint
-- Hand-written (not in the drizzle snapshot): indexes for the staff dashboard's search with 100,000 orders:
-- ILIKE '%…%' on the customer's name and email, and an order id prefix. The list itself (orders with a
-- name, newest first) walks orders_created_at_idx and stops after one page.
CREATE INDEX "orders_customer_name_trgm_idx" ON "orders" USING gin (("customer"->>'name') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_customer_email_trgm_idx" ON "orders" USING gin (("customer"->>'email') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_order_id_prefix_idx" ON "orders" USING btree ("order_id" text_pattern_ops);
