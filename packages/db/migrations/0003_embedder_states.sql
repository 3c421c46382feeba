CREATE TABLE "radar"."embedder_states" (
	"embedding_model_id" integer PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"corpus_size" integer NOT NULL,
	"sample_size" integer NOT NULL,
	"vocabulary" jsonb NOT NULL,
	"idf" "bytea" NOT NULL,
	"projection" "bytea" NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "radar"."embedder_states" ADD CONSTRAINT "embedder_states_embedding_model_id_embedding_models_id_fk" FOREIGN KEY ("embedding_model_id") REFERENCES "radar"."embedding_models"("id") ON DELETE cascade ON UPDATE no action;