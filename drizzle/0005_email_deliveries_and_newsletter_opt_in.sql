CREATE TABLE "email_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reference" text,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text,
	"tag" text,
	"reply_to" text,
	"headers" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_deliveries_status_valid" CHECK ("email_deliveries"."status" in ('pending', 'sent', 'failed')),
	CONSTRAINT "email_deliveries_attempts_non_negative" CHECK ("email_deliveries"."attempts" >= 0)
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "mailing_list" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "mailing_list" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailing_list" ADD COLUMN "unsubscribed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailing_list" ADD COLUMN "confirmation_sent_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "email_deliveries_reference_key" ON "email_deliveries" USING btree ("reference");--> statement-breakpoint
CREATE INDEX "email_deliveries_due_idx" ON "email_deliveries" USING btree ("next_attempt_at") WHERE "email_deliveries"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "mailing_list" ADD CONSTRAINT "mailing_list_status_valid" CHECK ("mailing_list"."status" in ('pending', 'confirmed', 'unsubscribed'));--> statement-breakpoint
-- Confirmations sent before the delivery queue were flagged in store_settings: they become sent deliveries, so none is sent twice.
INSERT INTO "email_deliveries" ("reference", "to_address", "subject", "text_body", "status", "attempts", "sent_at")
SELECT 'order-confirmation:' || substr("key", 25), '', 'Order confirmation', '', 'sent', 1, "updated_at"
FROM "store_settings" WHERE "key" LIKE 'order\_confirmation\_sent:%'
ON CONFLICT DO NOTHING;--> statement-breakpoint
DELETE FROM "store_settings" WHERE "key" LIKE 'order\_confirmation\_sent:%';
