import { MAX_NEAREST_RESULTS } from '@radar/db';
import { type FieldRankedItem, fieldRuleApplies, rankByFields } from './field-rule';

/**
 * The order of a recommendation (papers and news): the candidates that passed the threshold (raw
 * similarity to the research summary), ordered by the learned profile's similarity where there is one,
 * else the summary's, with the research-field rule applied (fieldOrderScore: an item outside every
 * field the reader chose counts OUT_OF_FIELD_FACTOR of its score); the first topK. The shown similarity
 * stays the raw one.
 */
export function orderRecommendations(input: {
  pool: readonly { id: number; similarity: number }[];
  readerFields: readonly string[];
  /** Each candidate's known research fields (empty or missing: unknown). */
  fields: ReadonlyMap<number, readonly string[]>;
  learnedScores?: ReadonlyMap<number, number> | undefined;
  topK: number;
}): FieldRankedItem[] {
  const { pool, readerFields } = input;
  const itemFields = fieldRuleApplies(readerFields) ? input.fields : new Map<number, string[]>();
  return rankByFields(pool, readerFields, itemFields, input.learnedScores).slice(0, input.topK);
}

/** Whether a recommendation needs a pool larger than top_k to reorder (learning, or the field rule). */
export const reorders = (learningApplied: boolean, readerFields: readonly string[]) =>
  learningApplied || fieldRuleApplies(readerFields);

/**
 * Candidates reordered by the learned profile or the field rule: the items nearest to the research
 * summary that pass every filter, at least 200 and five times top_k (at most MAX_NEAREST_RESULTS).
 */
export const rerankPoolSize = (topK: number) => Math.min(MAX_NEAREST_RESULTS, Math.max(200, topK * 5));
