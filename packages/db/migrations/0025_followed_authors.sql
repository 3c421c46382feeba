-- Followed authors. A paper keeps `authors` (names in order) and, when its source knows more (OpenAlex
-- authorships, Crossref authors), `author_identities`: one object per author in the same order,
-- {name, orcid?, openalexId?, affiliation?}. `author_keys` is what a follow is looked up by: 'n:' and the
-- normalised name of every author, 'o:' and each ORCID iD, 'a:' and each OpenAlex author id.
--
-- radar.author_name_key is the one normaliser of names (the follows' keys are made by it too): accents
-- folded and lower case, "Family, Given" turned round, punctuation and name suffixes dropped, then the
-- family name (the last word) and the first initial of the given names: "Jiang-Jiang Liu", "J. Liu" and
-- "Liu, Jiangjiang" are all 'liu j'. A name written without spaces (Chinese characters) is kept whole.
CREATE OR REPLACE FUNCTION radar.author_name_key(name text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
DECLARE
  folded text;
  family text := '';
  given text := '';
  words text[];
BEGIN
  folded := lower(regexp_replace(normalize(name, NFD), '[\u0300-\u036f]', '', 'g'));
  -- Name suffixes ("Smith, Jr.", "John Smith III") are not part of the family name.
  folded := regexp_replace(folded, '[,\s]+(jr|sr|ii|iii|iv)\.?\s*$', '');
  IF position(',' IN folded) > 0 THEN
    family := split_part(folded, ',', 1);
    given := substr(folded, position(',' IN folded) + 1);
  ELSE
    given := folded;
  END IF;
  -- Dots, hyphens, digits and other punctuation separate words.
  words := regexp_split_to_array(
    trim(regexp_replace(given || ' ' || family, '[^[:alpha:]]+', ' ', 'g')), '\s+');
  IF position(',' IN folded) > 0 THEN
    family := trim(regexp_replace(family, '[^[:alpha:]]+', ' ', 'g'));
    family := (regexp_split_to_array(family, '\s+'))[array_length(regexp_split_to_array(family, '\s+'), 1)];
    given := trim(regexp_replace(given, '[^[:alpha:]]+', ' ', 'g'));
  ELSE
    IF array_length(words, 1) IS NULL OR words[1] = '' THEN
      RETURN NULL;
    END IF;
    family := words[array_length(words, 1)];
    given := array_to_string(words[1:array_length(words, 1) - 1], ' ');
  END IF;
  IF family IS NULL OR family = '' THEN
    RETURN NULL;
  END IF;
  IF given = '' THEN
    RETURN family;
  END IF;
  RETURN family || ' ' || left(given, 1);
END
$fn$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION radar.paper_author_keys(authors jsonb, identities jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT coalesce(array_agg(DISTINCT k ORDER BY k) FILTER (WHERE k IS NOT NULL), '{}'::text[])
  FROM (
    SELECT 'n:' || radar.author_name_key(a) AS k
    FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(authors) = 'array' THEN authors ELSE '[]'::jsonb END) AS a
    UNION ALL
    SELECT 'o:' || (i ->> 'orcid')
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(identities) = 'array' THEN identities ELSE '[]'::jsonb END) AS i
    UNION ALL
    SELECT 'a:' || (i ->> 'openalexId')
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(identities) = 'array' THEN identities ELSE '[]'::jsonb END) AS i
  ) AS keys
$fn$;
--> statement-breakpoint
ALTER TABLE "radar"."papers" ADD COLUMN "author_identities" jsonb;--> statement-breakpoint
ALTER TABLE "radar"."papers" ADD COLUMN "author_keys" text[] GENERATED ALWAYS AS (radar.paper_author_keys(authors, author_identities)) STORED;--> statement-breakpoint
CREATE INDEX "papers_author_keys_idx" ON "radar"."papers" USING gin ("author_keys");--> statement-breakpoint
-- A reader's followed authors. `person_key` tells two follows of one person apart from two namesakes:
-- the ORCID iD, else the OpenAlex id, else the name key with the affiliation.
CREATE TABLE "radar"."followed_authors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"orcid" text,
	"openalex_id" text,
	"affiliation" text,
	"paper_id" bigint,
	"person_key" text GENERATED ALWAYS AS (CASE WHEN "orcid" IS NOT NULL THEN 'o:' || "orcid" WHEN "openalex_id" IS NOT NULL THEN 'a:' || "openalex_id" ELSE 'n:' || "name_key" || '@' || lower(coalesce("affiliation", '')) END) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "radar"."followed_authors" ADD CONSTRAINT "followed_authors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radar"."followed_authors" ADD CONSTRAINT "followed_authors_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "radar"."papers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "followed_authors_user_id_idx" ON "radar"."followed_authors" USING btree ("user_id", "id");--> statement-breakpoint
CREATE UNIQUE INDEX "followed_authors_user_person_key" ON "radar"."followed_authors" USING btree ("user_id", "person_key");
