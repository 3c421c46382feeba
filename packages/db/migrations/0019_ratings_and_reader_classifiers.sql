ALTER TABLE "radar"."user_article_states" ADD COLUMN "rating" smallint;--> statement-breakpoint
ALTER TABLE "radar"."user_article_states" ADD COLUMN "rated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "radar"."user_article_states" ADD CONSTRAINT "user_article_states_rating_values" CHECK ("rating" IN (1, -1));--> statement-breakpoint
ALTER TABLE "radar"."user_news_states" ADD COLUMN "rating" smallint;--> statement-breakpoint
ALTER TABLE "radar"."user_news_states" ADD COLUMN "rated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "radar"."user_news_states" ADD CONSTRAINT "user_news_states_rating_values" CHECK ("rating" IN (1, -1));--> statement-breakpoint
CREATE TABLE "radar"."reader_classifiers" (
	"user_id" uuid NOT NULL,
	"embedding_model_id" integer NOT NULL,
	"weights" vector NOT NULL,
	"bias" double precision NOT NULL,
	"signal_count" integer NOT NULL,
	"fitted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "reader_classifiers_user_id_embedding_model_id_pk" PRIMARY KEY("user_id","embedding_model_id")
);
--> statement-breakpoint
ALTER TABLE "radar"."reader_classifiers" ADD CONSTRAINT "reader_classifiers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."reader_classifiers" ADD CONSTRAINT "reader_classifiers_embedding_model_id_embedding_models_id_fk" FOREIGN KEY ("embedding_model_id") REFERENCES "radar"."embedding_models"("id") ON DELETE cascade ON UPDATE no action;
