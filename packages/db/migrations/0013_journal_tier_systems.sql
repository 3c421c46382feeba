-- Which system a journal's tier comes from and for which year: 'scimago' (SCImago quartiles, fetched on a
-- schedule or imported as a SCImago export), 'openalex' (quartiles of OpenAlex's two-year mean citedness
-- within the journal's field) or 'imported' (an operator's own table, e.g. JCR or 中科院分区). The scheduled
-- SCImago refresh never replaces an 'imported' tier; the OpenAlex one fills only journals without a tier.
ALTER TABLE "radar"."journals" ADD COLUMN "tier_system" text;--> statement-breakpoint
ALTER TABLE "radar"."journals" ADD COLUMN "tier_year" smallint;--> statement-breakpoint
-- When the OpenAlex tier job last looked this journal up (found or not), so it is not asked again daily.
ALTER TABLE "radar"."journals" ADD COLUMN "openalex_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "radar"."journals" ADD CONSTRAINT "journals_tier_system_check" CHECK ("tier_system" in ('scimago', 'openalex', 'imported'));--> statement-breakpoint
-- Tiers imported before this migration: SCImago exports were labelled "scimago[-year]", anything else was an
-- operator's table; the year is the label's four digits when it has them.
UPDATE "radar"."journals"
SET "tier_system" = CASE WHEN "tier_source" LIKE 'scimago%' THEN 'scimago' ELSE 'imported' END,
    "tier_year" = NULLIF(substring("tier_source" from '(?:^|[^0-9])((?:19|20)[0-9]{2})(?:[^0-9]|$)'), '')::smallint
WHERE "tier" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "journals_tier_system_year_idx" ON "radar"."journals" USING btree ("tier_system","tier_year");--> statement-breakpoint
-- One row per automatic tier system: when it was last tried and last succeeded, the year it got, and what
-- it keeps between runs (the OpenAlex field quartile boundaries of the year).
CREATE TABLE "radar"."tier_refreshes" (
	"system" text PRIMARY KEY NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"year" smallint,
	"summary" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
