-- A paper the reader wrote (seeded from their ORCID, OpenAlex author id or library file): a liked paper for
-- learning, kept apart from favourites so the reader's own works do not fill /library.
ALTER TABLE "radar"."user_article_states" ADD COLUMN "authored_at" timestamp with time zone;
