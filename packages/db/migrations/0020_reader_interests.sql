-- A reader's research interests beyond the research summary (the summary is the first interest; its
-- row, kind 'summary', only holds its quota and exists once the reader moved its slider). Typed ones are
-- embedded from their description, ones made from favourites are the mean of those papers' vectors; both
-- are kept on the active embedding model like the profile vector.
CREATE TABLE "radar"."reader_interests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"paper_ids" bigint[] DEFAULT '{}'::bigint[] NOT NULL,
	"quota" smallint DEFAULT 5 NOT NULL,
	"embedding" vector,
	"embedding_model_id" integer,
	"embedded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reader_interests_kind_check" CHECK ("kind" IN ('summary', 'typed', 'favourites')),
	CONSTRAINT "reader_interests_quota_check" CHECK ("quota" BETWEEN 1 AND 10)
);
--> statement-breakpoint
ALTER TABLE "radar"."reader_interests" ADD CONSTRAINT "reader_interests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."reader_interests" ADD CONSTRAINT "reader_interests_embedding_model_id_fk" FOREIGN KEY ("embedding_model_id") REFERENCES "radar"."embedding_models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reader_interests_user_id_idx" ON "radar"."reader_interests" USING btree ("user_id", "id");--> statement-breakpoint
CREATE UNIQUE INDEX "reader_interests_one_summary_idx" ON "radar"."reader_interests" USING btree ("user_id") WHERE "kind" = 'summary';
