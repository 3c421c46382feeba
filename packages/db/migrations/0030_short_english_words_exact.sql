-- A followed keyword's or a news search's English in the simple configuration (no stemming) takes each
-- word as a prefix so "network" finds "networks"; a word of three letters or fewer stays exact, since as a
-- prefix an acronym finds other words ('SMA' would find "small" and "smart", 'ion' "ionic").
CREATE OR REPLACE FUNCTION radar.english_alternatives_query(config regconfig, alternatives jsonb, prefix boolean)
RETURNS tsquery
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
  SELECT nullif(string_agg('(' || word_query || ')', ' & '), '')::tsquery
  FROM (
    SELECT (
      SELECT string_agg(
               '(' || CASE WHEN prefix
                           THEN regexp_replace(
                                  regexp_replace(q::text, '''((?:[^'']|'''')+)''', '''\1'':*', 'g'),
                                  '(^|[ (!])''([^'']{1,3})'':\*', '\1''\2''', 'g')
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
