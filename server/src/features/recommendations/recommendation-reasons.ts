import { type AiServices, explainRecommendation, idfOf, sharedFields, sharedProfileTerms } from '@radar/ai';
import type { UserRow } from '@radar/db';
import type { RecommendationReason } from '@radar/shared';
import type { Logger } from 'pino';
import { firstMentioned } from './term-match';

/**
 * A liked paper 'drove' a recommendation when the item is at least this similar to it and closer to it
 * than to the research summary; below it the likeness is too loose to name.
 */
export const SAVED_REASON_MIN_SIMILARITY = 0.5;

export interface ReasonCandidate {
  id: number;
  /** Title and abstract (or news content) as one text. */
  text: string;
  /** Similarity to the research summary's vector. */
  baseSimilarity: number;
  /** The liked paper closest to it, when the ranking learned from likes. */
  closestLiked?: { title: string; similarity: number } | undefined;
}

/**
 * Why each item is recommended (issue 13, "Say why"), most decisive first: a liked paper it is closest
 * to, a keyword the reader follows, the profile terms (and research fields) it shares with the English
 * research summary, else likeness to the profile as a whole. Shared terms are weighted by the active
 * built-in model's idf, or, for a remote model, by idf over this response's items.
 */
export async function buildReasons(
  deps: { ai: AiServices; logger: Logger },
  input: { user: UserRow; candidates: ReasonCandidate[]; keywords: readonly string[] },
): Promise<Map<number, RecommendationReason>> {
  const { user, candidates, keywords } = input;
  const summary = user.researchSummaryEn;
  const builtin = await deps.ai.embeddings.termWeighting().catch((error: Error) => {
    deps.logger.warn({ err: error.message }, 'term weighting of the active model unavailable');
    return undefined;
  });
  const weighting = builtin ?? idfOf([summary, ...candidates.map((candidate) => candidate.text)]);
  const reasons = new Map<number, RecommendationReason>();
  for (const candidate of candidates) {
    const keyword = firstMentioned(candidate.text, keywords);
    // With a keyword reason, the terms go beyond the keyword's own words.
    const terms = sharedProfileTerms(summary, candidate.text, weighting, 3, keyword ? { excluding: keyword } : {});
    const fields = sharedFields(user.researchFields, candidate.text);
    const liked = candidate.closestLiked;
    if (liked && liked.similarity >= SAVED_REASON_MIN_SIMILARITY && liked.similarity > candidate.baseSimilarity) {
      reasons.set(candidate.id, explainRecommendation({ driver: 'saved', terms, fields, savedTitle: liked.title }));
    } else if (keyword) {
      reasons.set(candidate.id, explainRecommendation({ driver: 'keyword', terms, fields, keyword }));
    } else if (terms.length > 0 || fields.length > 0) {
      reasons.set(candidate.id, explainRecommendation({ driver: 'terms', terms, fields }));
    } else {
      reasons.set(candidate.id, explainRecommendation({ driver: 'profile', terms: [], fields: [] }));
    }
  }
  return reasons;
}
