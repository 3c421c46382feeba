ALTER TABLE "radar"."papers" ADD COLUMN "duplicate_of" bigint;--> statement-breakpoint
ALTER TABLE "radar"."papers" ADD CONSTRAINT "papers_duplicate_of_papers_id_fk" FOREIGN KEY ("duplicate_of") REFERENCES "radar"."papers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "papers_duplicate_of_idx" ON "radar"."papers" USING btree ("duplicate_of") WHERE "radar"."papers"."duplicate_of" is not null;--> statement-breakpoint
-- Generic titles ("Author Correction", "Reply to comment") are shared by different works of the same
-- first author, so they never identify a paper: rows stored before the ingest rule existed lose their key
-- (the same list as GENERIC_TITLES in packages/ingest/src/identifiers.ts).
UPDATE "radar"."papers" SET "title_author_key" = NULL
WHERE "title_author_key" IS NOT NULL
  AND split_part("title_author_key", '|', 1) ~ '^(author |publisher |editorial )?(editorial|reply|response|correction|corrigendum|erratum|retraction|retraction note|expression of concern|comment|commentary|letter|letter to the editor|preface|foreword|introduction|news|in brief|books received|front matter|back matter|table of contents|contents|index|abstracts|reviewer acknowledgement|acknowledgement to reviewers|acknowledgment to reviewers|obituary|correspondence|highlights|research highlights|conference report|meeting report)( to (the )?(comment|letter|editor|reply|response))?$';
--> statement-breakpoint
-- The rule that keeps one card per paper: among the rows sharing a title_author_key, the best record is
-- canonical (a matched journal over a preprint, then a tier, then a record without an arXiv id, then the
-- one with an abstract, then with a DOI, then the oldest); the others point at it through duplicate_of.
-- Every user state on a duplicate moves to the canonical row, merged with any state the user already has
-- there (favourite/saved if either was, furthest reading, shares added; a dismissal is dropped when the
-- merged paper is favourited or saved), so nothing is lost and no (user, paper) key is repeated.
-- Called by ingest after every write of a keyed paper, so a better record arriving later takes over.
CREATE OR REPLACE FUNCTION radar.link_paper_duplicates(key text) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
  canonical bigint;
BEGIN
  IF key IS NULL THEN
    RETURN NULL;
  END IF;
  -- Most papers are the only row of their key: one indexed look, no lock, nothing to link or move.
  IF (SELECT count(*) FROM (SELECT 1 FROM radar.papers WHERE title_author_key = key LIMIT 2) two) < 2 THEN
    SELECT p.id INTO canonical FROM radar.papers p WHERE p.title_author_key = key AND p.duplicate_of IS NULL;
    IF FOUND OR NOT EXISTS (SELECT 1 FROM radar.papers WHERE title_author_key = key) THEN
      RETURN canonical;
    END IF;
  END IF;
  -- Two ingest runs storing copies of one paper at once relink it one after the other.
  PERFORM pg_advisory_xact_lock(hashtextextended('radar.paper_duplicates:' || key, 0));
  SELECT p.id INTO canonical FROM radar.papers p
  WHERE p.title_author_key = key
  ORDER BY (p.journal_id IS NOT NULL) DESC, (p.jcr_tier IS NOT NULL) DESC, (p.arxiv_id IS NULL) DESC,
    (p.abstract <> '') DESC, (p.doi IS NOT NULL) DESC, p.id
  LIMIT 1;
  IF canonical IS NULL THEN
    RETURN NULL;
  END IF;

  UPDATE radar.papers SET duplicate_of = NULL WHERE id = canonical AND duplicate_of IS NOT NULL;
  UPDATE radar.papers SET duplicate_of = canonical
  WHERE (title_author_key = key OR duplicate_of IN (SELECT id FROM radar.papers WHERE title_author_key = key))
    AND id <> canonical AND duplicate_of IS DISTINCT FROM canonical;

  -- Merge states of users who have one on both rows, then move the rest.
  WITH dup AS (
    SELECT s.user_id, bool_or(s.is_favorited) AS is_favorited, bool_or(s.is_saved) AS is_saved,
      sum(s.share_count)::int AS share_count, max(s.last_shared_at) AS last_shared_at,
      max(s.read_progress)::smallint AS read_progress, max(s.last_read_at) AS last_read_at,
      max(s.dismissed_at) AS dismissed_at, min(s.created_at) AS created_at
    FROM radar.user_article_states s JOIN radar.papers p ON p.id = s.paper_id
    WHERE p.duplicate_of = canonical
    GROUP BY s.user_id
  )
  INSERT INTO radar.user_article_states AS c (user_id, paper_id, is_favorited, is_saved, share_count,
    last_shared_at, read_progress, last_read_at, dismissed_at, created_at, updated_at)
  SELECT dup.user_id, canonical, dup.is_favorited, dup.is_saved, dup.share_count, dup.last_shared_at,
    dup.read_progress, dup.last_read_at,
    CASE WHEN dup.is_favorited OR dup.is_saved THEN NULL ELSE dup.dismissed_at END, dup.created_at, now()
  FROM dup
  ON CONFLICT (user_id, paper_id) DO UPDATE SET
    is_favorited = c.is_favorited OR excluded.is_favorited,
    is_saved = c.is_saved OR excluded.is_saved,
    share_count = c.share_count + excluded.share_count,
    last_shared_at = greatest(c.last_shared_at, excluded.last_shared_at),
    read_progress = greatest(c.read_progress, excluded.read_progress),
    last_read_at = greatest(c.last_read_at, excluded.last_read_at),
    dismissed_at = CASE
      WHEN c.is_favorited OR excluded.is_favorited OR c.is_saved OR excluded.is_saved THEN NULL
      ELSE greatest(c.dismissed_at, excluded.dismissed_at) END,
    created_at = least(c.created_at, excluded.created_at),
    updated_at = now();
  DELETE FROM radar.user_article_states s USING radar.papers p
  WHERE p.id = s.paper_id AND p.duplicate_of = canonical;

  -- A paper mailed to a user once stays mailed once, whichever record was sent.
  INSERT INTO radar.keyword_alert_deliveries (user_id, paper_id, keyword_id, sent_at)
  SELECT DISTINCT ON (d.user_id) d.user_id, canonical, d.keyword_id, d.sent_at
  FROM radar.keyword_alert_deliveries d JOIN radar.papers p ON p.id = d.paper_id
  WHERE p.duplicate_of = canonical
  ORDER BY d.user_id, d.sent_at
  ON CONFLICT (user_id, paper_id) DO NOTHING;
  DELETE FROM radar.keyword_alert_deliveries d USING radar.papers p
  WHERE p.id = d.paper_id AND p.duplicate_of = canonical;

  RETURN canonical;
END;
$fn$;
--> statement-breakpoint
-- Duplicates stored before this migration: link them and move their states.
SELECT radar.link_paper_duplicates(k.title_author_key)
FROM (
  SELECT title_author_key FROM radar.papers
  WHERE title_author_key IS NOT NULL
  GROUP BY title_author_key HAVING count(*) > 1
) k;
