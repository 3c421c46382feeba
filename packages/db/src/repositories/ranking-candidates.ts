import { type SQL, sql } from 'drizzle-orm';
import { requestValue } from './one-trip';
import type { ItemKind } from './reader-eligibility';

/*
 * The candidates of a recommendation's step 2 (papers, news, a keyword alert's papers), typed: what
 * the search's statement computes per candidate besides its similarity, and how its rows read back.
 * The statements that send these columns: PaperRepository.recommendWith, NewsSearchRepository.nearestWith
 * and KeywordRepository.claimAlertDigests.
 */

/** How the reader's learning scores each candidate (@radar/recommend orders by it in step 3). */
export type CandidateScoring =
  /** The reader's classifier (w·x, computed with pgvector's negative inner product). */
  | { by: 'classifier'; weights: readonly number[] }
  /** The learned (Rocchio) profile: the candidate's similarity to it. */
  | { by: 'learned-profile'; vector: readonly number[] }
  /** No learning: the similarity to the searched vector alone. */
  | { by: 'similarity' };

/** A candidate as step 3 orders it. */
export interface RankingCandidate {
  id: number;
  /** Similarity to the searched vector (the research summary's, or an interest's). */
  similarity: number;
  /** Its known research fields, distinct (a paper's own and its journal's); empty: unknown. */
  fields: string[];
  /** The classifier's w·x ('classifier' scoring); null otherwise, or without a vector of the model. */
  classifierProduct: number | null;
  /** The similarity to the learned profile ('learned-profile' scoring); null otherwise. */
  learnedSimilarity: number | null;
}

/** The row of a search before it is typed: nearest-search's id, similarity and `x_` columns. */
export interface SearchRow {
  id: number;
  similarity: number;
  extra: Record<string, unknown>;
}

/** A reader's vector: a parameter of the prepared search (one-trip.ts). */
const vectorLiteral = (values: readonly number[]) => requestValue(`[${values.join(',')}]`);

/** The per-candidate columns of the search's statement, over the searched row as `item`. */
export function candidateColumns(kind: ItemKind, scoring: CandidateScoring, dimension: number): SQL[] {
  // An integer of our own tables, inlined so the cast matches the model's vectors.
  const dim = sql.raw(String(Math.trunc(dimension)));
  const columns = [
    kind === 'paper'
      ? sql`item.research_fields || coalesce((SELECT j.research_fields FROM radar.journals j WHERE j.id = item.journal_id), '{}'::text[]) AS x_fields`
      : sql`item.research_fields AS x_fields`,
  ];
  if (scoring.by === 'classifier') {
    columns.push(
      sql`-((item.embedding::vector(${dim})) <#> ${vectorLiteral(scoring.weights)}::vector(${dim})) AS x_classifier`,
    );
  } else if (scoring.by === 'learned-profile') {
    columns.push(
      sql`1 - ((item.embedding::vector(${dim})) <=> ${vectorLiteral(scoring.vector)}::vector(${dim})) AS x_learned`,
    );
  }
  return columns;
}

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** A search row read as a typed candidate. */
export function toRankingCandidate(row: SearchRow): RankingCandidate {
  const fields = Array.isArray(row.extra.fields) ? (row.extra.fields as string[]) : [];
  return {
    id: row.id,
    similarity: row.similarity,
    fields: [...new Set(fields)],
    classifierProduct: numberOrNull(row.extra.classifier),
    learnedSimilarity: numberOrNull(row.extra.learned),
  };
}

/**
 * What a recommendation's search sends in its one round trip besides the search (step 2): how each
 * candidate is scored, the same search for the reader's other interests, and named statements run after
 * it (the freshness line; for papers, the followed authors' candidates).
 */
export interface CandidateTripOptions {
  scoring?: CandidateScoring | undefined;
  otherVectors?: number[][] | undefined;
  freshness?: SQL | undefined;
  followedAuthors?: SQL | undefined;
}

/** The typed rows of that round trip. */
export interface CandidateTrip {
  /** Every candidate before the threshold, most similar first. */
  candidates: RankingCandidate[];
  /** The same search for each of the other vectors, before the threshold (similarity to that vector). */
  others: RankingCandidate[][];
  /** The freshness statement's row (RecommendationDiagnosticsRepository.readFreshness reads it). */
  freshnessRow: Record<string, unknown> | undefined;
  /** The followed authors' statement's rows (RecommendationRepository.readFollowedAuthorCandidates). */
  followedAuthorRows: Record<string, unknown>[];
}

/** Runs the named statements after the search and types its rows. */
export async function runCandidateTrip(
  kind: ItemKind,
  dimension: number,
  more: CandidateTripOptions,
  search: (options: { rowColumns: SQL[]; after: SQL[]; otherVectors: number[][] | undefined }) => Promise<{
    rows: SearchRow[];
    others: SearchRow[][];
    after: Record<string, unknown>[][];
  }>,
): Promise<CandidateTrip & { rows: SearchRow[] }> {
  const named = [more.freshness, more.followedAuthors];
  const after = named.filter((statement): statement is SQL => statement !== undefined);
  const result = await search({
    rowColumns: candidateColumns(kind, more.scoring ?? { by: 'similarity' }, dimension),
    after,
    otherVectors: more.otherVectors,
  });
  const rowsOf = (statement: SQL | undefined) =>
    statement === undefined ? undefined : result.after[after.indexOf(statement)];
  return {
    rows: result.rows,
    candidates: result.rows.map(toRankingCandidate),
    others: result.others.map((rows) => rows.map(toRankingCandidate)),
    freshnessRow: rowsOf(more.freshness)?.[0],
    followedAuthorRows: rowsOf(more.followedAuthors) ?? [],
  };
}
