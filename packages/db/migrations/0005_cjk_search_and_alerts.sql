-- Chinese has no spaces: to_tsvector makes a whole sentence one token, so a Chinese query found nothing.
-- radar.cjk_bigrams splits runs of CJK characters (Han, kana, Hangul) into overlapping bigrams, as
-- Lucene's CJK analyzer does (one character alone stays a unigram), turns CJK, full-width and general
-- punctuation into spaces and full-width letters and digits into ASCII; other text passes unchanged.
-- Documents and queries go through it alike.
CREATE OR REPLACE FUNCTION radar.cjk_bigrams(input text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
DECLARE
  run text;
  result text := '';
  n int;
BEGIN
  FOR run IN
    SELECT (regexp_matches(input, '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+|[^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+', 'g'))[1]
  LOOP
    IF run ~ '^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]' THEN
      n := char_length(run);
      IF n = 1 THEN
        result := result || ' ' || run;
      ELSE
        FOR i IN 1 .. n - 1 LOOP
          result := result || ' ' || substr(run, i, 2);
        END LOOP;
      END IF;
    ELSE
      -- Full-width letters and digits become ASCII; CJK, full-width and general punctuation become spaces.
      result := result || ' ' || regexp_replace(
        translate(run, '０１２３４５６７８９ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚ', '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'),
        '[\u2000-\u206f\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]', ' ', 'g');
    END IF;
  END LOOP;
  RETURN result;
END
$fn$;
--> statement-breakpoint
CREATE TABLE "radar"."keyword_alert_deliveries" (
	"user_id" uuid NOT NULL,
	"paper_id" bigint NOT NULL,
	"keyword_id" bigint,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "keyword_alert_deliveries_user_id_paper_id_pk" PRIMARY KEY("user_id","paper_id")
);
--> statement-breakpoint
ALTER TABLE "radar"."news_items" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "radar"."news_items" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', radar.cjk_bigrams(coalesce(title, ''))), 'A') || setweight(to_tsvector('simple', radar.cjk_bigrams(coalesce(content, ''))), 'B')) STORED;--> statement-breakpoint
ALTER TABLE "radar"."papers" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "radar"."papers" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', radar.cjk_bigrams(coalesce(title, ''))), 'A') || setweight(to_tsvector('english', radar.cjk_bigrams(coalesce(abstract, ''))), 'B') || setweight(to_tsvector('simple', radar.cjk_bigrams(coalesce(journal_name, ''))), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "radar"."feedback" ADD COLUMN "mailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "radar"."user_keywords" ADD COLUMN "negative_terms" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "radar"."keyword_alert_deliveries" ADD CONSTRAINT "keyword_alert_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."keyword_alert_deliveries" ADD CONSTRAINT "keyword_alert_deliveries_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "radar"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."keyword_alert_deliveries" ADD CONSTRAINT "keyword_alert_deliveries_keyword_id_user_keywords_id_fk" FOREIGN KEY ("keyword_id") REFERENCES "radar"."user_keywords"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "keyword_alert_deliveries_sent_idx" ON "radar"."keyword_alert_deliveries" USING btree ("sent_at");--> statement-breakpoint
-- Dropping the generated columns dropped their GIN indexes; drizzle-kit does not recreate them.
CREATE INDEX IF NOT EXISTS "news_items_search_vector_idx" ON "radar"."news_items" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "papers_search_vector_idx" ON "radar"."papers" USING gin ("search_vector");
