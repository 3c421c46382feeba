import { isChineseText, sharedTermsInAnyLanguage } from '@radar/ai';

/** Every term weighs alike: only whether a term is shared matters here. */
const ANY_TERM = { weight: () => 1 };

/**
 * A Chinese item compared with an English research summary through its offline glosses (an embedding
 * endpoint that is not multilingual) can look similar only because a gloss shares a word with the
 * summary in another sense (太阳能电池 "solar cell" and a biologist's "cell"). Such an item, one that
 * shares no whole glossary term with the summary (sharedTermsInAnyLanguage), is listed after the items
 * that do, keeping both groups' order; it is not removed (the similarity threshold already passed it).
 * English items, and every item when the summary is Chinese or the endpoint multilingual, keep their
 * place.
 */
export function unmatchedChineseLast<Entry>(
  entries: readonly Entry[],
  textOf: (entry: Entry) => string | undefined,
  summary: string,
  options: { multilingual: boolean },
): Entry[] {
  if (options.multilingual || !summary.trim() || isChineseText(summary)) return [...entries];
  const matched: Entry[] = [];
  const unmatched: Entry[] = [];
  for (const entry of entries) {
    const text = textOf(entry) ?? '';
    const isUnmatched = isChineseText(text) && sharedTermsInAnyLanguage(summary, text, ANY_TERM, 1).length === 0;
    (isUnmatched ? unmatched : matched).push(entry);
  }
  return [...matched, ...unmatched];
}
