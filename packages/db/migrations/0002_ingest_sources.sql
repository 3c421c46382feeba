CREATE TABLE "radar"."ingest_host_leases" (
	"key" text PRIMARY KEY NOT NULL,
	"holder" text,
	"lease_until" timestamp with time zone,
	"next_request_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "radar"."ingest_rejects" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "radar"."ingest_rejects_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"source" text NOT NULL,
	"severity" text DEFAULT 'rejected' NOT NULL,
	"item_key" text,
	"reason" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "radar"."ingest_sources" (
	"name" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'never-run' NOT NULL,
	"cursor" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_added" integer DEFAULT 0 NOT NULL,
	"last_updated" integer DEFAULT 0 NOT NULL,
	"last_skipped" integer DEFAULT 0 NOT NULL,
	"last_rejected" integer DEFAULT 0 NOT NULL,
	"total_added" integer DEFAULT 0 NOT NULL,
	"last_summary" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ingest_rejects_source_created_idx" ON "radar"."ingest_rejects" USING btree ("source","created_at");