import { documentEmbeddingText, idfOf, sharedFields, sharedTermsInAnyLanguage, type TermWeighting } from '@radar/ai';
import type { ClosestLiked } from '@radar/db';
import { RESEARCH_FIELDS, type RecommendationReason } from '@radar/shared';
import type { Logger } from 'pino';
import type { FieldStanding } from './field-rule';
import { explainRecommendation } from './reason-text';

/**
 * A liked paper 'drove' a recommendation when the item is at least this similar to it and closer to it
 * than to the research summary; below it the likeness is too loose to name.
 */
const SAVED_REASON_MIN_SIMILARITY = 0.5;

/** Profile terms named per item (the card's sentence and the alert mail's line stay short). */
const SHARED_TERMS_PER_ITEM = 3;

export interface ReasonCandidate {
  id: number;
  /** A paper's title and abstract, a news item's title and content. */
  title: string;
  body: string;
  /** Similarity to the research summary's vector (0 when unknown: a keyword alert's paper without one). */
  baseSimilarity: number;
  /**
   * The reader's keyword the item matches, as the database decided it (matchesKeyword in
   * packages/db: the phrase and none of its negative terms): the alert's keyword, or for a
   * recommendation the best matching one (bestMatchingKeyword). Undefined when none.
   */
  keyword?: string | undefined;
  /** The liked paper closest to it, when the ranking learned from likes (paper recommendations). */
  closestLiked?: Pick<ClosestLiked, 'title' | 'similarity' | 'signal'> | undefined;
  /** Where the item stands against the reader's fields (the field rule), and its known fields. */
  fieldStanding?: FieldStanding | undefined;
  fields?: readonly string[] | undefined;
  /**
   * The reader's other research interest it was drawn for (several interests; undefined: the research
   * summary's): that interest placed it, so the reason names it instead of what the summary shares.
   */
  interest?: { name: string; description: string } | undefined;
}

/** What reasons are about: the reader's English research summary and their research fields. */
export interface ReasonReader {
  researchSummaryEn: string;
  researchFields: readonly string[];
}

export interface ReasonDeps {
  /** The active model's term weights (undefined: a model without vocabulary; idf over the items is used). */
  termWeighting: () => Promise<TermWeighting | undefined>;
  logger?: Logger | undefined;
}

const LABEL_ZH = new Map<string, string>(RESEARCH_FIELDS.map((field) => [field.id, field.labelZh]));
const labelsOf = (ids: readonly string[]) => ids.flatMap((id) => LABEL_ZH.get(id) ?? []);

/**
 * Why each item is recommended or alerted (issue 13, "Say why"), one way for paper and news
 * recommendations and keyword alerts, most decisive first: a liked paper it is closest to, a keyword the
 * reader follows, the profile terms (and research fields) it shares with the English research summary,
 * else likeness to the profile as a whole; an item outside every field the reader chose (demoted by the
 * field rule) ends with 不在你选择的研究领域内 and its fields. An item drawn for another of the reader's
 * interests names that interest and the terms it shares with its description. Shared terms are weighted
 * by the active built-in model's idf, or, for a remote model, by idf over the summary and these items; a
 * Chinese item (or interest) names the Chinese terms whose English the other side contains, in both
 * languages (sharedTermsInAnyLanguage), never a generic sentence when a term matched.
 */
export async function buildReasons(
  deps: ReasonDeps,
  input: { reader: ReasonReader; candidates: readonly ReasonCandidate[] },
): Promise<Map<number, RecommendationReason>> {
  const { reader, candidates } = input;
  const summary = reader.researchSummaryEn;
  const texts = new Map(
    candidates.map((candidate) => [candidate.id, documentEmbeddingText(candidate.title, candidate.body)]),
  );
  const builtin = summary.trim()
    ? await deps.termWeighting().catch((error: Error) => {
        deps.logger?.warn(
          { err: error.message },
          'term weighting of the active model unavailable; idf of the items used',
        );
        return undefined;
      })
    : undefined;
  const weighting = builtin ?? idfOf([summary, ...texts.values()]);
  const reasons = new Map<number, RecommendationReason>();
  for (const candidate of candidates) {
    const text = texts.get(candidate.id) ?? '';
    const outsideFields = candidate.fieldStanding === 'outside' ? labelsOf(candidate.fields ?? []) : [];
    if (candidate.interest) {
      const { name, description } = candidate.interest;
      const interestTerms = sharedTermsInAnyLanguage(description, text, weighting, SHARED_TERMS_PER_ITEM);
      reasons.set(
        candidate.id,
        explainRecommendation({
          driver: 'interest',
          terms: interestTerms,
          interestName: name,
          outsideFields,
        }),
      );
      continue;
    }
    const { keyword } = candidate;
    // With a keyword reason, the terms go beyond the keyword's own words.
    const terms = sharedTermsInAnyLanguage(
      summary,
      text,
      weighting,
      SHARED_TERMS_PER_ITEM,
      keyword ? { excluding: keyword } : {},
    );
    // Fields: the reader's fields the item is known to belong to, then those its text names.
    const known = candidate.fieldStanding === 'inside' ? (candidate.fields ?? []) : [];
    const fields = [
      ...new Set([
        ...labelsOf(reader.researchFields.filter((id) => known.includes(id))),
        ...sharedFields([...reader.researchFields], text),
      ]),
    ];
    const liked = candidate.closestLiked;
    if (liked && liked.similarity >= SAVED_REASON_MIN_SIMILARITY && liked.similarity > candidate.baseSimilarity) {
      reasons.set(
        candidate.id,
        explainRecommendation({
          driver: 'saved',
          terms,
          fields,
          savedTitle: liked.title,
          savedSignal: liked.signal,
          outsideFields,
        }),
      );
    } else if (keyword) {
      reasons.set(candidate.id, explainRecommendation({ driver: 'keyword', terms, fields, keyword, outsideFields }));
    } else if (terms.length > 0 || fields.length > 0) {
      reasons.set(candidate.id, explainRecommendation({ driver: 'terms', terms, fields, outsideFields }));
    } else {
      reasons.set(candidate.id, explainRecommendation({ driver: 'profile', terms: [], fields: [], outsideFields }));
    }
  }
  return reasons;
}
