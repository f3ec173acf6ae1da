CREATE TABLE "catalog_changes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "catalog_changes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"product_key" text NOT NULL,
	"field" text NOT NULL,
	"old_value" text,
	"new_value" text,
	"staff_email" text NOT NULL,
	"source" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "catalog_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"staff_id" uuid NOT NULL,
	"staff_email" text NOT NULL,
	"file_name" text NOT NULL,
	"digest" text NOT NULL,
	"rows" jsonb NOT NULL,
	"errors" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone,
	"applied_by" text
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "compare_at_cents" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sale_price_cents" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sale_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "sale_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "published" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "non_returnable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "custom_made" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "made_to_order" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "desk_fields" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "desk_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "staff_users" ADD COLUMN "role" text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
-- Accounts made before roles could do everything: they stay owners, so the shop keeps a way to refund.
UPDATE "staff_users" SET "role" = 'owner';--> statement-breakpoint
CREATE INDEX "catalog_changes_product_idx" ON "catalog_changes" USING btree ("product_key","changed_at");--> statement-breakpoint
CREATE INDEX "catalog_imports_created_idx" ON "catalog_imports" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_desk_prices_positive" CHECK (coalesce("products"."compare_at_cents", 1) > 0 and coalesce("products"."sale_price_cents", 1) > 0);--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_sale_ends_after_start" CHECK ("products"."sale_ends_at" is null or "products"."sale_starts_at" is null or "products"."sale_ends_at" > "products"."sale_starts_at");--> statement-breakpoint
ALTER TABLE "staff_users" ADD CONSTRAINT "staff_users_role_valid" CHECK ("staff_users"."role" in ('owner', 'staff'));