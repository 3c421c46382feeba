-- Operators see the flow: when a failing spell (failing_since, added by 0012) was logged at warn (once
-- per spell; cleared by the next success).
ALTER TABLE "radar"."ingest_sources" ADD COLUMN "failure_warned_at" timestamp with time zone;--> statement-breakpoint
-- A journal record names its preprint's DOI (source_ids.preprintDoi): the preprint, arriving later, is
-- looked up by it (IngestPaperRepository.findDedupeCandidates). Not partial: the planner uses the
-- statistics ANALYZE gathers on an index expression only for a non-partial index, and a partial one is
-- estimated at 0.5% of the table.
CREATE INDEX "papers_preprint_doi_idx" ON "radar"."papers" USING btree (lower("source_ids" ->> 'preprintDoi'));
