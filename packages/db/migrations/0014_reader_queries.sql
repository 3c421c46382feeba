CREATE TABLE "radar"."reader_queries" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"last_run_at" timestamp with time zone NOT NULL,
	"terms" text[] DEFAULT '{}'::text[] NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "radar"."reader_queries" ADD CONSTRAINT "reader_queries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reader_queries_last_run_at_idx" ON "radar"."reader_queries" USING btree ("last_run_at");
