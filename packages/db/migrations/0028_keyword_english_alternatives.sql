-- A followed keyword typed in Chinese also matches papers and news that say it in English, as article
-- and news search do: the keyword's English (for each of its words, the English phrases of which one
-- must occur, from the one glossary of @radar/ai) is stored with it when it is added, and every compiled
-- keyword (alerts, reasons, the keywords page) matches its own bigram phrase or that English.
ALTER TABLE radar.user_keywords ADD COLUMN english_alternatives jsonb;
--> statement-breakpoint
-- The text query of stored English alternatives ([["gut microbiota", "gut microbiome"], ["metabolism"]]):
-- every word as one of its phrases, each phrase built like a document in `config`; `prefix` makes each
-- lexeme a prefix (the simple configuration does not stem: "network:*" lets "networks" match). NULL when
-- no phrase has a lexeme. A word none of whose phrases has a lexeme (all stop words) is left out.
CREATE OR REPLACE FUNCTION radar.english_alternatives_query(config regconfig, alternatives jsonb, prefix boolean)
RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT nullif(string_agg('(' || word_query || ')', ' & '), '')::tsquery
  FROM (
    SELECT (
      SELECT string_agg(
               '(' || CASE WHEN prefix THEN regexp_replace(q::text, '''((?:[^'']|'''')+)''', '''\1'':*', 'g')
                           ELSE q::text END || ')',
               ' | ')
      FROM jsonb_array_elements_text(word) AS alternative(phrase)
      CROSS JOIN LATERAL phraseto_tsquery(config, alternative.phrase) AS q
      WHERE numnode(q) > 0
    ) AS word_query
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(alternatives) = 'array' THEN alternatives ELSE '[]'::jsonb END)
         AS words(word)
    WHERE jsonb_typeof(word) = 'array'
  ) AS words
  WHERE word_query IS NOT NULL
$fn$;
