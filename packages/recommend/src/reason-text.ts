import type { LikedSignal } from '@radar/db';
import type { ReasonKind, RecommendationReason } from '@radar/shared';

/**
 * The one-sentence Chinese reason a recommendation card shows (learning.schema.ts), from what drove
 * it. A driver that lacks its detail falls back (saved without a title, keyword without a keyword:
 * the shared terms and fields; none of them either: the profile as a whole).
 */

/** Longest reason text: terms that do not fit are left out, so `terms` lists exactly those shown. */
export const MAX_REASON_CHARS = 80;
const MAX_TITLE_CHARS = 40;
const MAX_KEYWORD_CHARS = 30;

const TEXTS = {
  // The liked paper a card resembles, named by what the reader did with it.
  liked: {
    favorite: (title: string) => `与你收藏的《${title}》相似`,
    saved: (title: string) => `与你稍后读的《${title}》相似`,
    rated: (title: string) => `与你点赞的《${title}》相似`,
    authored: (title: string) => `与你的作品《${title}》相似`,
    read: (title: string) => `与你读过的《${title}》相似`,
  } satisfies Record<LikedSignal, (title: string) => string>,
  keyword: (keyword: string) => `匹配你的关键词「${keyword}」`,
  keywordTerms: '；与研究方向共有：',
  terms: '与你的研究方向共有：',
  fields: '；同属领域：',
  fieldsOnly: '与你的研究领域相同：',
  profile: '与你的研究方向整体相近',
  outside: (labels: string) => `；不在你选择的研究领域内（${labels}）`,
  interest: (name: string) => `来自你的研究兴趣「${name}」`,
  interestTerms: '；共有：',
} as const;

const SEPARATOR = '、';

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function shorten(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}

/** As many of `items` as fit after `prefix` within `budget` characters (at least one when any fits). */
function fitList(prefix: string, items: string[], budget: number): string[] {
  const shown: string[] = [];
  let length = prefix.length;
  for (const item of items) {
    const added = (shown.length ? SEPARATOR.length : 0) + item.length;
    if (length + added > budget) break;
    shown.push(item);
    length += added;
  }
  return shown;
}

/** Distinct, non-empty, one-line, case-insensitively; leaves out `except` (the keyword already named). */
function distinct(items: string[], except?: string): string[] {
  const seen = new Set(except ? [except.toLowerCase()] : []);
  const out: string[] = [];
  for (const item of items.map(oneLine)) {
    if (!item || seen.has(item.toLowerCase())) continue;
    seen.add(item.toLowerCase());
    out.push(item);
  }
  return out;
}

/** What drove a recommendation, with the detail each driver names. */
interface ReasonDrivers {
  driver: ReasonKind;
  terms: string[];
  fields?: string[];
  keyword?: string;
  savedTitle?: string;
  /** What made that paper liked (收藏, 稍后读, 👍, own work, read); favourite when unknown. */
  savedSignal?: LikedSignal | undefined;
  /** The other research interest it was drawn for (driver 'interest'). */
  interestName?: string;
}

export function explainRecommendation(
  input: ReasonDrivers & {
    /**
     * The item's own fields (Chinese labels) when it is outside every field the reader chose (the field
     * rule demoted it): the reason ends by saying so, within MAX_REASON_CHARS.
     */
    outsideFields?: string[];
  },
): RecommendationReason {
  const outside = distinct(input.outsideFields ?? []);
  if (!outside.length) return explainWithin(input, MAX_REASON_CHARS);
  const suffix = TEXTS.outside(fitList('', outside, 20).join(SEPARATOR) || (outside[0] as string));
  const reason = explainWithin(input, MAX_REASON_CHARS - suffix.length);
  return { ...reason, text: `${reason.text}${suffix}` };
}

function explainWithin(input: ReasonDrivers, budget: number): RecommendationReason {
  const interestName = oneLine(input.interestName ?? '');
  if (input.driver === 'interest' && interestName) {
    const head = TEXTS.interest(shorten(interestName, MAX_KEYWORD_CHARS));
    const shown = fitList(`${head}${TEXTS.interestTerms}`, distinct(input.terms), budget);
    return {
      kind: 'interest',
      text: shown.length ? `${head}${TEXTS.interestTerms}${shown.join(SEPARATOR)}` : head,
      terms: shown,
    };
  }
  const savedTitle = oneLine(input.savedTitle ?? '');
  if (input.driver === 'saved' && savedTitle) {
    const text = TEXTS.liked[input.savedSignal ?? 'favorite'](shorten(savedTitle, MAX_TITLE_CHARS));
    return { kind: 'saved', text, terms: [] };
  }
  const keyword = oneLine(input.keyword ?? '');
  if (input.driver === 'keyword' && keyword) {
    const head = TEXTS.keyword(shorten(keyword, MAX_KEYWORD_CHARS));
    const shown = fitList(`${head}${TEXTS.keywordTerms}`, distinct(input.terms, keyword), budget);
    return {
      kind: 'keyword',
      text: shown.length ? `${head}${TEXTS.keywordTerms}${shown.join(SEPARATOR)}` : head,
      terms: [keyword, ...shown],
    };
  }
  if (input.driver === 'profile') return { kind: 'profile', text: TEXTS.profile, terms: [] };
  const terms = fitList(TEXTS.terms, distinct(input.terms), budget);
  const fields = distinct(input.fields ?? []);
  if (terms.length) {
    let text = `${TEXTS.terms}${terms.join(SEPARATOR)}`;
    const shownFields = fitList(`${text}${TEXTS.fields}`, fields, budget);
    if (shownFields.length) text += `${TEXTS.fields}${shownFields.join(SEPARATOR)}`;
    return { kind: 'terms', text, terms };
  }
  const shownFields = fitList(TEXTS.fieldsOnly, fields, budget);
  if (shownFields.length) {
    return { kind: 'terms', text: `${TEXTS.fieldsOnly}${shownFields.join(SEPARATOR)}`, terms: [] };
  }
  return { kind: 'profile', text: TEXTS.profile, terms: [] };
}
