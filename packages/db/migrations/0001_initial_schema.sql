CREATE SCHEMA "radar";
--> statement-breakpoint
CREATE TYPE "radar"."async_task_status" AS ENUM('pending', 'processing', 'completed', 'failed');--> statement-breakpoint
CREATE TABLE "radar"."async_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" "radar"."async_task_status" DEFAULT 'pending' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"input" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result_data" jsonb,
	"error_message" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "radar"."email_verification_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"locked_until" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "radar"."password_reset_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "password_reset_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "radar"."institutes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "radar"."institutes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"homepage_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "institutes_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "radar"."journals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "radar"."journals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"title_normalized" text NOT NULL,
	"issn" text,
	"eissn" text,
	"tier" smallint,
	"tier_source" text,
	"publisher" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journals_tier_range" CHECK ("radar"."journals"."tier" between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "radar"."news_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "radar"."news_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"url_normalized" text NOT NULL,
	"institute_id" bigint,
	"publish_date" timestamp with time zone,
	"crawl_date" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"embedding" vector,
	"embedding_model_id" integer,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', coalesce(title, '')), 'A') || setweight(to_tsvector('simple', coalesce(content, '')), 'B')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "radar"."papers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "radar"."papers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"authors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"abstract" text DEFAULT '' NOT NULL,
	"journal_id" bigint,
	"journal_name" text DEFAULT '' NOT NULL,
	"jcr_tier" smallint,
	"doi" text,
	"arxiv_id" text,
	"url" text DEFAULT '' NOT NULL,
	"url_normalized" text,
	"pdf_url" text,
	"published_at" date,
	"keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"llm_summary" text,
	"llm_summary_model" text,
	"title_author_key" text,
	"source_ids" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source" text NOT NULL,
	"is_demo" boolean DEFAULT false NOT NULL,
	"embedding" vector,
	"embedding_model_id" integer,
	"search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(abstract, '')), 'B') || setweight(to_tsvector('simple', coalesce(journal_name, '')), 'C')) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "papers_jcr_tier_range" CHECK ("radar"."papers"."jcr_tier" between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "radar"."embedding_models" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "radar"."embedding_models_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"name" text NOT NULL,
	"version" text DEFAULT '1' NOT NULL,
	"dimension" integer NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "radar"."feedback" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "radar"."feedback_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"user_info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "radar"."user_article_states" (
	"user_id" uuid NOT NULL,
	"paper_id" bigint NOT NULL,
	"is_favorited" boolean DEFAULT false NOT NULL,
	"is_saved" boolean DEFAULT false NOT NULL,
	"share_count" integer DEFAULT 0 NOT NULL,
	"last_shared_at" timestamp with time zone,
	"read_progress" smallint DEFAULT 0 NOT NULL,
	"last_read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_article_states_user_id_paper_id_pk" PRIMARY KEY("user_id","paper_id"),
	CONSTRAINT "user_article_states_read_progress_range" CHECK ("radar"."user_article_states"."read_progress" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "radar"."user_keywords" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "radar"."user_keywords_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"alert_enabled" boolean DEFAULT false NOT NULL,
	"alert_frequency" text DEFAULT 'daily' NOT NULL,
	"last_alerted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "radar"."users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"is_email_verified" boolean DEFAULT false NOT NULL,
	"username" text DEFAULT '' NOT NULL,
	"research_description" text DEFAULT '' NOT NULL,
	"research_name" text DEFAULT '' NOT NULL,
	"research_email" text DEFAULT '' NOT NULL,
	"research_institution" text DEFAULT '' NOT NULL,
	"research_position" text DEFAULT '' NOT NULL,
	"research_fields" text[] DEFAULT '{}'::text[] NOT NULL,
	"research_fields_unmapped" text[] DEFAULT '{}'::text[] NOT NULL,
	"research_summary_en" text DEFAULT '' NOT NULL,
	"profile_embedding" vector,
	"profile_embedding_model_id" integer,
	"profile_embedded_at" timestamp with time zone,
	"token_version" integer DEFAULT 0 NOT NULL,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "radar"."async_tasks" ADD CONSTRAINT "async_tasks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."email_verification_codes" ADD CONSTRAINT "email_verification_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."news_items" ADD CONSTRAINT "news_items_institute_id_institutes_id_fk" FOREIGN KEY ("institute_id") REFERENCES "radar"."institutes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."news_items" ADD CONSTRAINT "news_items_embedding_model_id_embedding_models_id_fk" FOREIGN KEY ("embedding_model_id") REFERENCES "radar"."embedding_models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."papers" ADD CONSTRAINT "papers_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "radar"."journals"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."papers" ADD CONSTRAINT "papers_embedding_model_id_embedding_models_id_fk" FOREIGN KEY ("embedding_model_id") REFERENCES "radar"."embedding_models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."feedback" ADD CONSTRAINT "feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."user_article_states" ADD CONSTRAINT "user_article_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."user_article_states" ADD CONSTRAINT "user_article_states_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "radar"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."user_keywords" ADD CONSTRAINT "user_keywords_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."users" ADD CONSTRAINT "users_profile_embedding_model_id_embedding_models_id_fk" FOREIGN KEY ("profile_embedding_model_id") REFERENCES "radar"."embedding_models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "async_tasks_user_created_idx" ON "radar"."async_tasks" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "email_verification_codes_user_created_idx" ON "radar"."email_verification_codes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_idx" ON "radar"."password_reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "journals_issn_key" ON "radar"."journals" USING btree ("issn") WHERE "radar"."journals"."issn" is not null;--> statement-breakpoint
CREATE INDEX "journals_eissn_idx" ON "radar"."journals" USING btree ("eissn");--> statement-breakpoint
CREATE INDEX "journals_title_normalized_idx" ON "radar"."journals" USING btree ("title_normalized");--> statement-breakpoint
CREATE UNIQUE INDEX "news_items_url_normalized_key" ON "radar"."news_items" USING btree ("url_normalized");--> statement-breakpoint
CREATE INDEX "news_items_institute_idx" ON "radar"."news_items" USING btree ("institute_id");--> statement-breakpoint
CREATE INDEX "news_items_publish_date_idx" ON "radar"."news_items" USING btree ("publish_date");--> statement-breakpoint
CREATE INDEX "news_items_crawl_date_idx" ON "radar"."news_items" USING btree ("crawl_date");--> statement-breakpoint
CREATE INDEX "news_items_embedding_model_idx" ON "radar"."news_items" USING btree ("embedding_model_id");--> statement-breakpoint
CREATE INDEX "news_items_search_vector_idx" ON "radar"."news_items" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "papers_doi_key" ON "radar"."papers" USING btree (lower("doi")) WHERE "radar"."papers"."doi" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "papers_arxiv_id_key" ON "radar"."papers" USING btree ("arxiv_id") WHERE "radar"."papers"."arxiv_id" is not null;--> statement-breakpoint
CREATE INDEX "papers_url_normalized_idx" ON "radar"."papers" USING btree ("url_normalized");--> statement-breakpoint
CREATE INDEX "papers_title_author_key_idx" ON "radar"."papers" USING btree ("title_author_key");--> statement-breakpoint
CREATE INDEX "papers_published_at_idx" ON "radar"."papers" USING btree ("published_at");--> statement-breakpoint
CREATE INDEX "papers_journal_id_idx" ON "radar"."papers" USING btree ("journal_id");--> statement-breakpoint
CREATE INDEX "papers_embedding_model_idx" ON "radar"."papers" USING btree ("embedding_model_id");--> statement-breakpoint
CREATE INDEX "papers_search_vector_idx" ON "radar"."papers" USING gin ("search_vector");--> statement-breakpoint
CREATE UNIQUE INDEX "embedding_models_provider_name_version_key" ON "radar"."embedding_models" USING btree ("provider","name","version");--> statement-breakpoint
CREATE UNIQUE INDEX "embedding_models_single_active_key" ON "radar"."embedding_models" USING btree ("is_active") WHERE "radar"."embedding_models"."is_active";--> statement-breakpoint
CREATE INDEX "feedback_created_idx" ON "radar"."feedback" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "user_article_states_paper_idx" ON "radar"."user_article_states" USING btree ("paper_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_keywords_user_name_key" ON "radar"."user_keywords" USING btree ("user_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "radar"."users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_profile_embedding_model_idx" ON "radar"."users" USING btree ("profile_embedding_model_id");