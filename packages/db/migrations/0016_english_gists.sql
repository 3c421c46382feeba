ALTER TABLE "radar"."papers" ADD COLUMN "english_gist" text;--> statement-breakpoint
ALTER TABLE "radar"."papers" ADD COLUMN "english_gist_source" text;--> statement-breakpoint
ALTER TABLE "radar"."papers" ADD COLUMN "english_gist_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "radar"."news_items" ADD COLUMN "english_gist" text;--> statement-breakpoint
ALTER TABLE "radar"."news_items" ADD COLUMN "english_gist_source" text;--> statement-breakpoint
ALTER TABLE "radar"."news_items" ADD COLUMN "english_gist_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "papers_english_gist_at_idx" ON "radar"."papers" USING btree ("english_gist_at") WHERE "radar"."papers"."english_gist_at" is not null;--> statement-breakpoint
CREATE INDEX "news_items_english_gist_at_idx" ON "radar"."news_items" USING btree ("english_gist_at") WHERE "radar"."news_items"."english_gist_at" is not null;--> statement-breakpoint
-- Chinese items were embedded from their Chinese text; they are now embedded from an English gist or
-- gloss (packages/ai/src/embedding-text.ts). Their vectors are dropped once, so the background
-- re-embedding (every row without a vector of the active model) redoes them. "Chinese" as isChineseText
-- decides: at least 2 Han characters, making at least a fifth of Han characters plus Latin letters.
UPDATE "radar"."papers" SET "embedding" = NULL, "embedding_model_id" = NULL
WHERE "embedding_model_id" IS NOT NULL
  AND length(regexp_replace("title" || ' ' || "abstract", '[^一-鿿]', '', 'g')) >= 2
  AND length(regexp_replace("title" || ' ' || "abstract", '[^一-鿿]', '', 'g'))
      >= 0.2 * (length(regexp_replace("title" || ' ' || "abstract", '[^一-鿿]', '', 'g'))
                + length(regexp_replace("title" || ' ' || "abstract", '[^A-Za-z]', '', 'g')));--> statement-breakpoint
UPDATE "radar"."news_items" SET "embedding" = NULL, "embedding_model_id" = NULL
WHERE "embedding_model_id" IS NOT NULL
  AND length(regexp_replace("title" || ' ' || "content", '[^一-鿿]', '', 'g')) >= 2
  AND length(regexp_replace("title" || ' ' || "content", '[^一-鿿]', '', 'g'))
      >= 0.2 * (length(regexp_replace("title" || ' ' || "content", '[^一-鿿]', '', 'g'))
                + length(regexp_replace("title" || ' ' || "content", '[^A-Za-z]', '', 'g')));
