-- A paper private to one reader (papers.private_to) takes no part in linking duplicates: it is never the
-- canonical row of public ones (their readers would be sent to a record only its uploader may see, with
-- the upload's text) and never linked under a public row (the public row already is the paper; the upload
-- stays its uploader's, as the import left it). When a public source brings the same work, ContentStore
-- makes the row public and links it then. Moving a duplicate's states to the canonical row keeps the
-- reader's own-work mark (authored_at), which the earlier versions of this function dropped.
CREATE OR REPLACE FUNCTION radar.link_paper_duplicates(key text) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
  canonical bigint;
BEGIN
  IF key IS NULL THEN
    RETURN NULL;
  END IF;
  -- Most papers are the only public row of their key: one indexed look, no lock, nothing to link or move.
  IF (SELECT count(*) FROM (
        SELECT 1 FROM radar.papers WHERE title_author_key = key AND private_to IS NULL LIMIT 2) two) < 2 THEN
    SELECT p.id INTO canonical FROM radar.papers p
    WHERE p.title_author_key = key AND p.private_to IS NULL AND p.duplicate_of IS NULL;
    IF FOUND OR NOT EXISTS (SELECT 1 FROM radar.papers WHERE title_author_key = key AND private_to IS NULL) THEN
      RETURN canonical;
    END IF;
  END IF;
  -- Two ingest runs storing copies of one paper at once relink it one after the other.
  PERFORM pg_advisory_xact_lock(hashtextextended('radar.paper_duplicates:' || key, 0));
  SELECT p.id INTO canonical FROM radar.papers p
  WHERE p.title_author_key = key AND p.private_to IS NULL
  ORDER BY (p.journal_id IS NOT NULL) DESC, (p.jcr_tier IS NOT NULL) DESC, (p.arxiv_id IS NULL) DESC,
    (p.abstract <> '') DESC, (p.doi IS NOT NULL) DESC, p.id
  LIMIT 1;
  IF canonical IS NULL THEN
    RETURN NULL;
  END IF;

  UPDATE radar.papers SET duplicate_of = NULL WHERE id = canonical AND duplicate_of IS NOT NULL;
  UPDATE radar.papers SET duplicate_of = canonical
  WHERE private_to IS NULL
    AND (title_author_key = key OR duplicate_of IN (SELECT id FROM radar.papers WHERE title_author_key = key))
    AND id <> canonical AND duplicate_of IS DISTINCT FROM canonical;

  -- Merge states of users who have one on both rows, then move the rest.
  WITH dup AS (
    SELECT s.user_id, bool_or(s.is_favorited) AS is_favorited, bool_or(s.is_saved) AS is_saved,
      sum(s.share_count)::int AS share_count, max(s.last_shared_at) AS last_shared_at,
      max(s.read_progress)::smallint AS read_progress, max(s.last_read_at) AS last_read_at,
      max(s.dismissed_at) AS dismissed_at, min(s.created_at) AS created_at,
      (array_agg(s.rating ORDER BY s.rated_at DESC NULLS LAST))[1] AS rating, max(s.rated_at) AS rated_at,
      min(s.authored_at) AS authored_at
    FROM radar.user_article_states s JOIN radar.papers p ON p.id = s.paper_id
    WHERE p.duplicate_of = canonical
    GROUP BY s.user_id
  )
  INSERT INTO radar.user_article_states AS c (user_id, paper_id, is_favorited, is_saved, share_count,
    last_shared_at, read_progress, last_read_at, dismissed_at, created_at, updated_at, rating, rated_at, authored_at)
  SELECT dup.user_id, canonical, dup.is_favorited, dup.is_saved, dup.share_count, dup.last_shared_at,
    dup.read_progress, dup.last_read_at,
    CASE WHEN dup.is_favorited OR dup.is_saved THEN NULL ELSE dup.dismissed_at END, dup.created_at, now(),
    dup.rating, dup.rated_at, dup.authored_at
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
    updated_at = now(),
    rating = CASE WHEN c.rated_at IS NULL OR excluded.rated_at > c.rated_at THEN excluded.rating ELSE c.rating END,
    rated_at = greatest(c.rated_at, excluded.rated_at),
    authored_at = least(c.authored_at, excluded.authored_at);
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
-- Links made before this rule: private rows leave the links they were in (either side), and the public
-- rows of their keys are linked again among themselves. (States that earlier links moved onto a private
-- row stay there: which of them came from a public record cannot be told apart.)
UPDATE "radar"."papers" SET "duplicate_of" = NULL
WHERE "duplicate_of" IS NOT NULL
  AND ("private_to" IS NOT NULL
    OR "duplicate_of" IN (SELECT "id" FROM "radar"."papers" WHERE "private_to" IS NOT NULL));--> statement-breakpoint
SELECT radar.link_paper_duplicates(k.title_author_key)
FROM (SELECT DISTINCT "title_author_key" FROM "radar"."papers"
      WHERE "private_to" IS NOT NULL AND "title_author_key" IS NOT NULL) k;
