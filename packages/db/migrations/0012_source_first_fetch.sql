ALTER TABLE "radar"."ingest_sources" ADD COLUMN "first_fetch_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "radar"."ingest_sources" ADD COLUMN "failing_since" timestamp with time zone;--> statement-breakpoint
UPDATE "radar"."ingest_sources" SET "failing_since" = "last_error_at" WHERE "status" = 'failed';
