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

/** `%text%` for ILIKE, with the pattern characters of `text` taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
