-- A paper that entered the corpus only through one reader's own-works import (ORCID, OpenAlex author id
-- or a library file) is that reader's alone: `private_to` names them, and every channel that shows papers
-- to a reader leaves out rows private to someone else (packages/db/src/repositories/reader-eligibility.ts).
-- A public source storing the same work clears it (the public record is shown from then on); an import
-- never rewrites a public record. Deleting the account deletes what only it could see.
ALTER TABLE "radar"."papers" ADD COLUMN "private_to" uuid REFERENCES "radar"."users"("id") ON DELETE CASCADE;--> statement-breakpoint
CREATE INDEX "papers_private_to_idx" ON "radar"."papers" USING btree ("private_to") WHERE "private_to" IS NOT NULL;--> statement-breakpoint
-- Rows an import created before this migration: private to the reader who imported them first (a row a
-- public source updated since cannot be told apart here; that source's next run makes it public again).
UPDATE "radar"."papers" p SET "private_to" = (
  SELECT s.user_id FROM "radar"."user_article_states" s
  WHERE s.paper_id = p.id AND s.authored_at IS NOT NULL ORDER BY s.authored_at, s.user_id LIMIT 1)
WHERE p.source = 'own-works';
