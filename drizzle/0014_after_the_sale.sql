CREATE TABLE "after_sale_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "after_sale_lines" (
	"request_id" uuid NOT NULL,
	"order_id" text NOT NULL,
	"line_index" integer NOT NULL,
	"product_key" text NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "after_sale_lines_request_id_line_index_pk" PRIMARY KEY("request_id","line_index"),
	CONSTRAINT "after_sale_lines_quantity_positive" CHECK ("after_sale_lines"."quantity" > 0 and "after_sale_lines"."line_index" >= 0)
);
--> statement-breakpoint
CREATE TABLE "after_sale_photos" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "after_sale_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"order_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"serial_number" text,
	"video_url" text,
	"authorization_number" text,
	"label_url" text,
	"decline_reason" text,
	"refund_cents" bigint,
	"refund_reference" text,
	"refund_started_at" timestamp with time zone,
	"refunded_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"received_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "after_sale_requests_kind_valid" CHECK ("after_sale_requests"."kind" in ('return', 'defect')),
	CONSTRAINT "after_sale_requests_status_valid" CHECK ("after_sale_requests"."status" in ('requested', 'approved', 'declined', 'received', 'refunded')),
	CONSTRAINT "after_sale_requests_reason_valid" CHECK ("after_sale_requests"."reason" in ('Changed my mind', 'Arrived damaged', 'Wrong item', 'Defective')),
	CONSTRAINT "after_sale_requests_refund_non_negative" CHECK ("after_sale_requests"."refund_cents" is null or "after_sale_requests"."refund_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tracking_number" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tracker_id" text;--> statement-breakpoint
ALTER TABLE "after_sale_events" ADD CONSTRAINT "after_sale_events_request_id_after_sale_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."after_sale_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "after_sale_lines" ADD CONSTRAINT "after_sale_lines_request_id_after_sale_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."after_sale_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "after_sale_photos" ADD CONSTRAINT "after_sale_photos_request_id_after_sale_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."after_sale_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "after_sale_requests" ADD CONSTRAINT "after_sale_requests_order_id_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "after_sale_events_request_idx" ON "after_sale_events" USING btree ("request_id","created_at");--> statement-breakpoint
CREATE INDEX "after_sale_lines_order_line_idx" ON "after_sale_lines" USING btree ("order_id","line_index");--> statement-breakpoint
CREATE INDEX "after_sale_photos_request_idx" ON "after_sale_photos" USING btree ("request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "after_sale_requests_number_key" ON "after_sale_requests" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "after_sale_requests_authorization_key" ON "after_sale_requests" USING btree ("authorization_number");--> statement-breakpoint
CREATE INDEX "after_sale_requests_order_idx" ON "after_sale_requests" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "after_sale_requests_status_created_idx" ON "after_sale_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_tracker_id_key" ON "orders" USING btree ("tracker_id");