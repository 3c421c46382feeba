-- Research fields (ids of the 21 in packages/shared/src/research-fields.ts) as evidence for ranking.
-- papers/news_items: what the item's source said (the source entry's declared fields, arXiv categories,
-- OpenAlex's primary topic field); journals: the subject areas of the tier table (SCImago "Areas" and
-- "Categories"). A paper's fields at query time are its own joined with its journal's, so a journal whose
-- areas arrive later (a tier import after the paper) needs no backfill. Empty means unknown: never demoted.
ALTER TABLE "radar"."papers" ADD COLUMN "research_fields" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "radar"."news_items" ADD COLUMN "research_fields" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "radar"."journals" ADD COLUMN "research_fields" text[] DEFAULT '{}'::text[] NOT NULL;
