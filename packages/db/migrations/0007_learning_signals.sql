CREATE TABLE "radar"."user_news_states" (
	"user_id" uuid NOT NULL,
	"news_item_id" bigint NOT NULL,
	"dismissed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_news_states_user_id_news_item_id_pk" PRIMARY KEY("user_id","news_item_id")
);
--> statement-breakpoint
ALTER TABLE "radar"."user_article_states" ADD COLUMN "dismissed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "radar"."users" ADD COLUMN "learned_embedding" vector;--> statement-breakpoint
ALTER TABLE "radar"."users" ADD COLUMN "learned_embedding_model_id" integer;--> statement-breakpoint
ALTER TABLE "radar"."users" ADD COLUMN "learned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "radar"."users" ADD COLUMN "learned_signal_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "radar"."users" ADD COLUMN "learning_reset_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "radar"."user_news_states" ADD CONSTRAINT "user_news_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."user_news_states" ADD CONSTRAINT "user_news_states_news_item_id_news_items_id_fk" FOREIGN KEY ("news_item_id") REFERENCES "radar"."news_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_news_states_news_item_idx" ON "radar"."user_news_states" USING btree ("news_item_id");--> statement-breakpoint
ALTER TABLE "radar"."users" ADD CONSTRAINT "users_learned_embedding_model_id_embedding_models_id_fk" FOREIGN KEY ("learned_embedding_model_id") REFERENCES "radar"."embedding_models"("id") ON DELETE set null ON UPDATE no action;