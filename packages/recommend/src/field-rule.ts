/**
 * The research-field rule of recommendation ranking: an item whose known research fields share none
 * with the fields the reader chose is ordered as if its similarity were OUT_OF_FIELD_FACTOR times its
 * own. The rule only reorders: the displayed similarity, the threshold and the '(filtered out N)' count
 * stay about the raw similarity to the research summary, and nothing is removed (a demoted item still
 * shows when nothing in the reader's fields outranks it, with its reason saying it is outside them).
 *
 * Untouched: a reader with no field (or only 'multidisciplinary'), and an item without field evidence
 * (unknown; rows stored before fields were recorded, feeds that declare none). 'multidisciplinary' is
 * no evidence either way: on an item (Nature, Science, PNAS journals publish everything) it is ignored,
 * so an item known only as multidisciplinary is unknown; a reader's 'multidisciplinary' adds no field of
 * its own, their specific fields decide.
 *
 * The factor was chosen with `pnpm bench:fields` (docs/benchmarks.md, docs/decisions.md): on the dev set
 * it never lowers precision@20 with the correct fields or with a wrong field added, and a reader who
 * ticked only wrong fields loses less than with a hard partition (all in-field items first).
 */
export const OUT_OF_FIELD_FACTOR = 0.5;

const MULTIDISCIPLINARY = 'multidisciplinary';

export type FieldStanding = 'inside' | 'outside' | 'unknown';

const specific = (fields: readonly string[]) => fields.filter((field) => field !== MULTIDISCIPLINARY);

/** Where an item stands against the reader's fields. */
export function fieldStanding(readerFields: readonly string[], itemFields: readonly string[]): FieldStanding {
  const reader = specific(readerFields);
  const item = specific(itemFields);
  if (reader.length === 0 || item.length === 0) return 'unknown';
  return item.some((field) => reader.includes(field)) ? 'inside' : 'outside';
}

/**
 * The score an item is ordered by: `score` (similarity to the summary, or to the learned profile)
 * demoted when the item is outside the reader's fields. Monotone in `score`, also below zero.
 */
export function fieldOrderScore(score: number, standing: FieldStanding, factor = OUT_OF_FIELD_FACTOR): number {
  if (standing !== 'outside') return score;
  return score >= 0 ? score * factor : score / Math.max(factor, 1e-9);
}

/** Whether the rule can change anything for this reader (they chose at least one specific field). */
export const fieldRuleApplies = (readerFields: readonly string[]) => specific(readerFields).length > 0;

export interface FieldRankedItem {
  id: number;
  /** Similarity to the research summary: shown, and what the threshold applied to. */
  similarity: number;
  /** What the item is ordered by. */
  rank: number;
  standing: FieldStanding;
  /** The item's specific fields (without 'multidisciplinary'). */
  fields: string[];
}

/**
 * Orders candidates by the rule: rank = fieldOrderScore(order score, standing), highest first, ties by
 * id. `orderScores` (the learned profile's similarities) replaces the similarity where given.
 */
export function rankByFields(
  candidates: readonly { id: number; similarity: number }[],
  readerFields: readonly string[],
  itemFields: ReadonlyMap<number, readonly string[]>,
  orderScores?: ReadonlyMap<number, number>,
  factor = OUT_OF_FIELD_FACTOR,
): FieldRankedItem[] {
  return candidates
    .map((candidate) => {
      const fields = specific(itemFields.get(candidate.id) ?? []);
      const standing = fieldStanding(readerFields, fields);
      const score = orderScores?.get(candidate.id) ?? candidate.similarity;
      return {
        id: candidate.id,
        similarity: candidate.similarity,
        rank: fieldOrderScore(score, standing, factor),
        standing,
        fields,
      };
    })
    .sort((a, b) => b.rank - a.rank || a.id - b.id);
}
