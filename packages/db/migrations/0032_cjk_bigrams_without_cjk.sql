-- radar.cjk_bigrams (migration 0005) computes every paper's and news item's search document, on each
-- insert and on each update of the row (vectors included). translate() of the full-width letters walks
-- every character of the text against its 62-character list: about 1 ms for an English abstract, most
-- of the time of a bulk insert. The same result, cheaper: text without CJK is one run (no splitting), and
-- translate() runs only on a run that has a full-width letter or digit.
CREATE OR REPLACE FUNCTION radar.cjk_bigrams(input text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
DECLARE
  run text;
  result text := '';
  n int;
BEGIN
  IF input !~ '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]' THEN
    IF input = '' THEN
      RETURN '';
    END IF;
    IF input ~ '[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]' THEN
      input := translate(input, '０１２３４５６７８９ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚ', '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
    END IF;
    RETURN ' ' || regexp_replace(input, '[\u2000-\u206f\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]', ' ', 'g');
  END IF;
  FOR run IN
    SELECT (regexp_matches(input, '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+|[^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+', 'g'))[1]
  LOOP
    IF run ~ '^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]' THEN
      n := char_length(run);
      IF n = 1 THEN
        result := result || ' ' || run;
      ELSE
        FOR i IN 1 .. n - 1 LOOP
          result := result || ' ' || substr(run, i, 2);
        END LOOP;
      END IF;
    ELSE
      -- Full-width letters and digits become ASCII; CJK, full-width and general punctuation become spaces.
      IF run ~ '[\uff10-\uff19\uff21-\uff3a\uff41-\uff5a]' THEN
        run := translate(run, '０１２３４５６７８９ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚ', '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz');
      END IF;
      result := result || ' ' || regexp_replace(run,
        '[\u2000-\u206f\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]', ' ', 'g');
    END IF;
  END LOOP;
  RETURN result;
END
$fn$;
