CREATE TABLE "payment_audit_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"attempt_id" text NOT NULL,
	"staff_email" text NOT NULL,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "promo_reservations" (
	"code" text NOT NULL,
	"email" text NOT NULL,
	"checkout_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_attempts" DROP CONSTRAINT "payment_attempts_status_valid";--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "checks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "refund_reference" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_audit_entries" ADD CONSTRAINT "payment_audit_entries_attempt_id_payment_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."payment_attempts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_audit_entries_attempt_idx" ON "payment_audit_entries" USING btree ("attempt_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "promo_reservations_code_email_key" ON "promo_reservations" USING btree ("code","email");--> statement-breakpoint
CREATE INDEX "payment_attempts_next_check_idx" ON "payment_attempts" USING btree ("next_check_at") WHERE "payment_attempts"."status" = 'started';--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD CONSTRAINT "payment_attempts_status_valid" CHECK ("payment_attempts"."status" in ('started', 'approved', 'declined', 'abandoned'));--> statement-breakpoint
-- Attempts left unfinished before the reconciler existed are asked about on its first pass.
UPDATE "payment_attempts" SET "next_check_at" = now() WHERE "status" = 'started';
