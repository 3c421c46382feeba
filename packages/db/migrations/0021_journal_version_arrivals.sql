-- When a paper stored as a preprint got its journal version: set by ingestion when the journal record
-- merges into the preprint's row, or on the journal record that takes over a stored preprint as the
-- canonical row (duplicate_of). Readers who favourited or saved the preprint before then are told (the
-- card's published_version, ArticleRepository.listPublishedPreprints for digests).
ALTER TABLE "radar"."papers" ADD COLUMN "journal_version_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "papers_journal_version_at_idx" ON "radar"."papers" USING btree ("journal_version_at") WHERE "journal_version_at" IS NOT NULL;
