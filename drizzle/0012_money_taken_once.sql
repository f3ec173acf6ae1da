ALTER TABLE "checkouts" ADD COLUMN "collecting_attempt_id" text;--> statement-breakpoint
ALTER TABLE "checkouts" ADD COLUMN "collecting_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "payment_id" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "refund_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "captured_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_attempts" ADD COLUMN "authorization_expires_at" timestamp with time zone;--> statement-breakpoint
-- Approved payments already recorded: their money's id is their reference, but for Affirm, whose order holds the transaction id.
UPDATE "payment_attempts" SET "payment_id" = "reference" WHERE "status" = 'approved' AND "provider" <> 'affirm';--> statement-breakpoint
UPDATE "payment_attempts" AS a SET "payment_id" = o."payment_reference", "authorization_expires_at" = o."created_at" + interval '30 days'
  FROM "orders" AS o
  WHERE a."status" = 'approved' AND a."provider" = 'affirm' AND o."checkout_token" = a."checkout_token" AND o."payment_provider" = 'affirm';--> statement-breakpoint
-- Second payments of a checkout recorded before: the store gives them back, as it now does at once.
UPDATE "payment_attempts" AS a SET "refund_reason" = 'duplicate'
  FROM "orders" AS o
  WHERE a."status" = 'approved' AND a."refunded_at" IS NULL AND a."provider" <> 'affirm'
    AND o."checkout_token" = a."checkout_token" AND o."payment_reference" <> a."payment_id";
