import { contentWords } from '../builtin/text-features';
import { isChineseText } from '../embedding-text';
import { glossChinese } from '../offline/chinese-gloss';
import { isGenericTerm } from './generic-terms';
import { sharedProfileTerms } from './shared-terms';
import type { TermWeighting } from './term-weighting';

/**
 * The terms a Chinese item shares with an English research summary, through the one glossary: a
 * Chinese term of the item counts when the summary contains every content word of its English gloss
 * (肠道菌群 -> "gut microbiota" needs both "gut" and "microbiota"), so a gloss that only shares a word
 * with another sense (太阳能电池 -> "solar cell" against a biologist's "cell") is no match. Shown in
 * both languages ("肠道菌群（gut microbiota）"), most telling first (the summed weight of the gloss's
 * words). Words every abstract uses are never named alone.
 */
function sharedChineseTerms(profileText: string, documentText: string, weighting: TermWeighting, limit = 3): string[] {
  if (limit <= 0 || !profileText.trim() || !documentText.trim()) return [];
  const profileWords = new Set(contentWords(profileText));
  if (profileWords.size === 0) return [];
  const matched: { shown: string; score: number; order: number }[] = [];
  glossChinese(documentText).terms.forEach((term, order) => {
    const stems = contentWords(term.en);
    if (stems.length === 0 || !stems.every((stem) => profileWords.has(stem))) return;
    if (isGenericTerm(stems, term.zh)) return;
    const score = stems.reduce((sum, stem) => sum + (weighting.weight(stem) ?? 0), 0);
    if (!(score > 0)) return;
    matched.push({ shown: `${term.zh}（${term.en}）`, score, order });
  });
  return matched
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map((term) => term.shown);
}

/**
 * What a reason names as shared between a profile text (the summary, an interest's description) and an
 * item, whatever their languages: the profile terms the item contains (sharedProfileTerms) when both
 * are in the same language, else the Chinese side's terms whose English the other side contains,
 * shown in both languages (an English summary and a Chinese news item, or an interest typed in Chinese
 * and an English paper). Takes sharedProfileTerms' arguments (`excluding` applies to the same-language case).
 */
export function sharedTermsInAnyLanguage(...args: Parameters<typeof sharedProfileTerms>): string[] {
  const [profileText, documentText, weighting, limit = 3] = args;
  const chineseProfile = isChineseText(profileText);
  const chineseDocument = isChineseText(documentText);
  if (chineseDocument && !chineseProfile) return sharedChineseTerms(profileText, documentText, weighting, limit);
  if (chineseProfile && !chineseDocument) return sharedChineseTerms(documentText, profileText, weighting, limit);
  return sharedProfileTerms(...args);
}
