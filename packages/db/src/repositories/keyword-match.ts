import { type SQL, sql } from 'drizzle-orm';

/*
 * How search keywords (article search, news search) are matched against the generated `search_vector`
 * columns, which were built through radar.cjk_bigrams (migration 0005). One plan for every search, so a
 * keyword finds the same things wherever it is typed.
 */

/** The CJK ranges of radar.cjk_bigrams (migration 0005), and the punctuation it turns into spaces. */
const CJK = '\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uac00-\\ud7af';
const CJK_PUNCTUATION = /[\u2000-\u206f\u3000-\u303f\uff00-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]+/;
/** A CJK character with no CJK neighbour: cjk_bigrams keeps it as a unigram, which no bigram matches. */
const LONE_CJK_CHARACTER = new RegExp(`(?<![${CJK}])[${CJK}](?![${CJK}])`);

/**
 * How a keyword is matched. cjk_bigrams indexes a run of two or more CJK characters only as its
 * bigrams, so a keyword with a lone CJK character ('量', 'A股') can never match the index: such
 * pieces are matched as substrings of title or content (ILIKE, no index) instead. Everything else is a
 * phrase of the same tokens the documents were indexed with. CJK and general punctuation split a
 * keyword into pieces (cjk_bigrams turns it into spaces), each of which must match; pieces without a
 * letter or digit are dropped.
 */
export function planKeywordMatch(keywords: readonly string[]): { phrases: string[]; substrings: string[] } {
  const phrases: string[] = [];
  const substrings: string[] = [];
  for (const keyword of keywords) {
    for (const piece of keyword.split(CJK_PUNCTUATION)) {
      const trimmed = piece.trim();
      // The parser makes tokens of letters and digits only: '+++' would be an empty query.
      if (!/[\p{L}\p{N}]/u.test(trimmed)) continue;
      (LONE_CJK_CHARACTER.test(trimmed) ? substrings : phrases).push(trimmed);
    }
  }
  return { phrases, substrings };
}

/**
 * The English a Chinese phrase also matches: for each of its words, the English phrases of which one
 * must occur (图神经网络 -> [["graph neural network"]]; 肠道菌群 -> [["gut microbiota", "gut
 * microbiome", ...]]), or null when there is no translation. Given by the caller (the one glossary of
 * @radar/ai), so the database layer holds no dictionary.
 */
export type EnglishWordAlternatives = readonly (readonly string[])[];
export type EnglishAlternatives = (phrase: string) => EnglishWordAlternatives | null;

/** Each phrase with its English alternative (null when none), in the order of `phrases`. */
export function withEnglishAlternatives(
  phrases: readonly string[],
  english: EnglishAlternatives | undefined,
): { phrase: string; english: EnglishWordAlternatives | null }[] {
  return phrases.map((phrase) => ({ phrase, english: english ? english(phrase) : null }));
}

/** `%text%` for ILIKE, with the pattern characters of `text` taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/*
 * A followed keyword (radar.user_keywords) against an item, the one rule for keyword alerts (which
 * papers a due keyword selects) and for recommendation reasons (which keyword a recommended item is
 * said to match): the item's generated `search_vector` contains the keyword as a phrase and none of
 * the keyword's negative terms (排除词). Both are built like the column they are matched against
 * (radar.cjk_bigrams, then the column's configuration: 'english' for papers, 'simple' for news), so a
 * keyword matches what its alerts and its document-frequency count on the keywords page match.
 */

/** The text search configuration each table's `search_vector` was built with (migration 0005). */
export type SearchVectorConfig = 'english' | 'simple';

/** A followed keyword's or negative term's text as a phrase query of the given configuration. */
export const keywordPhraseQuery = (text: SQL, config: SearchVectorConfig = 'english'): SQL =>
  sql`phraseto_tsquery(${sql.raw(`'${config}'`)}, radar.cjk_bigrams(${text}))`;

/**
 * A followed keyword's query: its own phrase, or the English it was stored with (a Chinese keyword's
 * english_alternatives, migration 0028), built like the column it is matched against: the 'english'
 * configuration stems, the 'simple' one takes each English word as a prefix, as news search does.
 */
const keywordOrEnglishQuery = (keyword: SQL, config: SearchVectorConfig): SQL => {
  const own = keywordPhraseQuery(sql`${keyword}.name`, config);
  const english = englishAlternativesQuery(sql`${keyword}.english_alternatives`, config);
  return sql`CASE WHEN ${keyword}.english_alternatives IS NULL THEN ${own} ELSE ${own} || coalesce(${english}, ${own}) END`;
};

/**
 * The text query of English alternatives (jsonb, EnglishWordAlternatives) against a `search_vector` of
 * `config`: every word as one of its phrases, each phrase parsed as the documents were (a hyphenated
 * "First-Class" keeps its parts in place); the 'simple' configuration does not stem, so there each word
 * is a prefix ("network:*" finds "networks"). NULL when no phrase has a word. Followed keywords and news
 * search build their English this one way (radar.english_alternatives_query, migration 0028).
 */
export const englishAlternativesQuery = (alternatives: SQL, config: SearchVectorConfig): SQL =>
  sql`radar.english_alternatives_query(${sql.raw(`'${config}'`)}, ${alternatives}, ${sql.raw(config === 'simple' ? 'true' : 'false')})`;

/**
 * The keywords of radar.user_keywords rows that pass `where` (over the alias `k`), each compiled once
 * per statement: `id`, `name`, `q` (its phrase query) and `negatives` (its negative terms' queries). Use
 * it as a MATERIALIZED CTE: built per matched row instead, the phrase queries cost about 1 ms per
 * 100 rows x keyword (PGlite, 20 keywords with 2 negative terms over 100 papers: 128 ms against 2 ms).
 */
export function compiledKeywords(where: SQL, config: SearchVectorConfig = 'english'): SQL {
  // A negative term matches as itself or as its English (negative_english, in the order of the terms).
  const negativeOwn = keywordPhraseQuery(sql`negative.term`, config);
  const negativeEnglish = englishAlternativesQuery(sql`k.negative_english -> (negative.n::int - 1)`, config);
  return sql`SELECT k.id, k.name, ${keywordOrEnglishQuery(sql`k`, config)} AS q,
                    ARRAY(SELECT ${negativeOwn} || coalesce(${negativeEnglish}, ${negativeOwn})
                          FROM unnest(k.negative_terms) WITH ORDINALITY AS negative(term, n)) AS negatives
             FROM radar.user_keywords k WHERE ${where}`;
}

/**
 * The condition "`vector` matches the compiled keyword `keyword` (a row of compiledKeywords())": the
 * phrase (a keyword with no indexable token matches nothing) and none of its negative terms.
 */
export const matchesKeyword = (vector: SQL, keyword: SQL): SQL =>
  sql`(numnode(${keyword}.q) > 0 AND ${vector} @@ ${keyword}.q AND NOT (${vector} @@ ANY(${keyword}.negatives)))`;

/**
 * The name of the compiled keyword (rows of the CTE `keywords`) that `vector` matches best
 * (ts_rank_cd, then the oldest keyword), null when it matches none: the keyword a recommendation
 * reason names, chosen as an alert would list it.
 */
export const bestMatchingKeyword = (vector: SQL, keywords: SQL): SQL =>
  sql`(SELECT kw.name FROM ${keywords} kw WHERE ${matchesKeyword(vector, sql`kw`)}
       ORDER BY ts_rank_cd(${vector}, kw.q) DESC, kw.id LIMIT 1)`;
