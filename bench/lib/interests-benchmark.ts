import {
  CLASSIFIER_MIN_SIGNALS,
  fitReaderClassifier,
  learnedProfileVector,
  RANDOM_NEGATIVE_WEIGHT,
  RANDOM_NEGATIVES_MIN,
  RANDOM_NEGATIVES_PER_SIGNAL,
  signalsOfSummary,
} from '../../packages/ai/src';
import { interleaveByQuota } from '../../packages/recommend/src/interest-quotas';

/*
 * The "interests" methods of `pnpm bench:quality` (bench/quality-interests.ts): simulated readers with
 * 2-3 interests drawn from a labelled set's categories, who rate what they see for 5 rounds, ranked
 * by Rocchio over one profile (today's single interest) or by Rocchio with interests (the pipeline's
 * step 3 with several interests: the summary's candidates reordered by the learned profile, each other
 * interest's by its own vector, drawn by quota with interleaveByQuota). With interests, the summary's
 * ranking learns from the ratings nearest the summary only (signalsOfSummary), as the profile-learning
 * job does. Reported per round: precision@20 (relevant: in any of the reader's categories) and each
 * interest's share of the top 20, by the documents' labels and by the interest each card was drawn for.
 *
 * The hook for other rankers of the research summary's list (the per-reader classifier): a method's
 * `summaryScores` scores every document for the summary interest from the reader's ratings so far;
 * `withInterests` says whether the other interests get their quota. Add an entry to INTEREST_METHODS.
 */

export interface InterestReaderState {
  /** The research summary's vector (the first interest). */
  summary: readonly number[];
  /** The vectors of the reader's other interests (none: one profile). */
  interests: readonly (readonly number[])[];
  liked: readonly number[];
  dismissed: readonly number[];
  vectors: readonly (readonly number[])[];
}

export interface InterestMethod {
  name: string;
  /** Each document's score for the summary's list (higher first). */
  summaryScores: (state: InterestReaderState) => Float64Array;
  withInterests: boolean;
}

/** The reader's ratings the summary learns from: those nearest the summary (all of them with one profile). */
const summarySignals = (state: InterestReaderState, documents: readonly number[]): number[] =>
  signalsOfSummary(state.summary, state.interests, documents, (d) => state.vectors[d] as number[]);

const rocchioScores = (state: InterestReaderState): Float64Array => {
  const profile = learnedProfileVector(
    [...state.summary],
    summarySignals(state, state.liked).map((d) => [...(state.vectors[d] as number[])]),
    summarySignals(state, state.dismissed).map((d) => [...(state.vectors[d] as number[])]),
  );
  return scoresFor(profile, state.vectors);
};

/**
 * The reader's classifier as the product fits it (from CLASSIFIER_MIN_SIGNALS signals; Rocchio below):
 * the summary and the favourites as positives, the dismissed as negatives, unrated documents drawn in a
 * fixed order as weaker negatives. Every signal weighs the same (the simulation has no dates).
 */
const classifierScores = (state: InterestReaderState): Float64Array => {
  const liked = summarySignals(state, state.liked);
  const dismissed = summarySignals(state, state.dismissed);
  const signals = liked.length + dismissed.length;
  // The product's switch counts all of the reader's signals, its fit only the summary's.
  if (state.liked.length + state.dismissed.length < CLASSIFIER_MIN_SIGNALS || signals < CLASSIFIER_MIN_SIGNALS)
    return rocchioScores(state);
  const vectorOf = (d: number) => state.vectors[d] as number[];
  const examples = [
    { vector: [...state.summary], label: 1 as const, weight: 1 },
    ...liked.map((d) => ({ vector: vectorOf(d), label: 1 as const, weight: 1 })),
    ...dismissed.map((d) => ({ vector: vectorOf(d), label: 0 as const, weight: 1 })),
  ];
  const rated = new Set([...state.liked, ...state.dismissed]);
  const wanted = Math.max(RANDOM_NEGATIVES_MIN, RANDOM_NEGATIVES_PER_SIGNAL * signals);
  const n = state.vectors.length;
  for (let i = 0, taken = 0; i < n && taken < wanted; i++) {
    const d = (7919 + i * 104_729) % n;
    if (rated.has(d)) continue;
    examples.push({ vector: vectorOf(d), label: 0, weight: RANDOM_NEGATIVE_WEIGHT });
    taken++;
  }
  const classifier = fitReaderClassifier(examples);
  if (!classifier) return rocchioScores(state);
  // w·x + b orders the documents as the classifier's probability does.
  const scores = scoresFor(classifier.weights, state.vectors);
  for (let d = 0; d < scores.length; d++) scores[d] = (scores[d] as number) + classifier.bias;
  return scores;
};

export const INTEREST_METHODS: InterestMethod[] = [
  { name: 'Rocchio (one profile)', summaryScores: rocchioScores, withInterests: false },
  { name: 'Rocchio with interests', summaryScores: rocchioScores, withInterests: true },
  { name: 'classifier (one profile)', summaryScores: classifierScores, withInterests: false },
  { name: 'classifier with interests', summaryScores: classifierScores, withInterests: true },
];

export interface InterestSimulationResult {
  method: string;
  /** Mean precision@shown per round 0..rounds. */
  precision: number[];
  /**
   * Issue 31: mean number of papers on the page the reader had not been shown before, per round, and the
   * relevant ones among them (out of `shown`). A favourited paper stays in the product's list (rule 3 of
   * packages/db/src/repositories/reader-eligibility.ts keeps out 👎, 👍 and 不感兴趣, not favourites), so
   * this reader's page repeats what it favourited and precision@shown counts those repeats.
   */
  unseen: number[];
  unseenPrecision: number[];
  /** Mean share of the top `shown` per interest slot (0: the summary), per round, by the documents' labels. */
  shares: number[][];
  /** Share of readers per round where some interest got less than half its quota, by label. */
  belowHalfQuota: number[];
  /** As belowHalfQuota, by the interest each card was drawn for (one profile: every card is the summary's). */
  belowHalfQuotaServed: number[];
  readers: number;
}

/** The summary's candidates the learned order applies to (the pipeline's rerankPoolSize at top_k 20). */
const SUMMARY_POOL = 200;

function scoresFor(profile: readonly number[], vectors: readonly (readonly number[])[]): Float64Array {
  const scores = new Float64Array(vectors.length);
  for (let d = 0; d < vectors.length; d++) {
    const v = vectors[d] as number[];
    let sum = 0;
    for (let i = 0; i < profile.length; i++) sum += (profile[i] as number) * (v[i] as number);
    scores[d] = sum;
  }
  return scores;
}

const ranked = (scores: Float64Array, keep: (d: number) => boolean): number[] =>
  Array.from(scores.keys())
    .filter(keep)
    .sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);

/**
 * Readers: every `step`-th document is a reader's research summary; their other interests are the
 * next one or two categories (in sorted order, alternating 1 and 2 more), each given by one document of
 * that category (as a typed description is one text). Interests have equal quotas.
 */
export function simulateInterestReaders(
  labels: readonly string[],
  vectors: readonly (readonly number[])[],
  method: InterestMethod,
  options: { rounds?: number; shown?: number; dismissPerRound?: number; step?: number } = {},
): InterestSimulationResult {
  const { rounds = 5, shown = 20, dismissPerRound = 5, step = 4 } = options;
  const categories = [...new Set(labels)].sort();
  const byCategory = new Map(categories.map((c) => [c, labels.flatMap((l, d) => (l === c ? [d] : []))]));
  const precision = new Array<number>(rounds + 1).fill(0);
  const unseen = new Array<number>(rounds + 1).fill(0);
  const unseenPrecision = new Array<number>(rounds + 1).fill(0);
  const shares = Array.from({ length: rounds + 1 }, () => [0, 0, 0]);
  const belowHalf = new Array<number>(rounds + 1).fill(0);
  const belowHalfServed = new Array<number>(rounds + 1).fill(0);
  let readers = 0;

  for (let query = 0; query < labels.length; query += step, readers++) {
    const own = labels[query] as string;
    const others = (readers % 2 === 0 ? [1] : [1, 2]).map(
      (offset) => categories[(categories.indexOf(own) + offset) % categories.length] as string,
    );
    const interestCategories = [own, ...others];
    // One document of each other category stands for the typed interest (not shown to the reader).
    const interestDocs = others.map((c) => {
      const docs = byCategory.get(c) as number[];
      return docs[(readers * 7) % docs.length] as number;
    });
    const hidden = new Set([query, ...interestDocs]);
    const interestScores = interestDocs.map((d) => scoresFor(vectors[d] as number[], vectors));
    const baseScores = scoresFor(vectors[query] as number[], vectors);
    const summaryPool = new Set(ranked(baseScores, (d) => !hidden.has(d)).slice(0, SUMMARY_POOL));
    const liked: number[] = [];
    const dismissed = new Set<number>();
    const seen = new Set<number>();

    for (let round = 0; round <= rounds; round++) {
      const state = {
        summary: vectors[query] as number[],
        interests: method.withInterests ? interestDocs.map((d) => vectors[d] as number[]) : [],
        liked,
        dismissed: [...dismissed],
        vectors,
      };
      const keep = (d: number) => !hidden.has(d) && !dismissed.has(d);
      let page: number[];
      let served: number[];
      if (!method.withInterests) {
        page = ranked(round === 0 ? baseScores : method.summaryScores(state), keep).slice(0, shown);
        served = page.map(() => 0);
      } else {
        const summaryScores = round === 0 ? baseScores : method.summaryScores(state);
        const lists = [
          { key: '0', quota: 1, items: ranked(summaryScores, (d) => keep(d) && summaryPool.has(d)) },
          ...interestScores.map((scores, index) => ({ key: String(index + 1), quota: 1, items: ranked(scores, keep) })),
        ];
        const drawn = interleaveByQuota(lists, shown, (d) => d);
        page = drawn.map((entry) => entry.item);
        served = drawn.map((entry) => Number(entry.key));
      }
      const relevant = page.filter((d) => interestCategories.includes(labels[d] as string));
      precision[round] = (precision[round] as number) + relevant.length / shown;
      const fresh = page.filter((d) => !seen.has(d));
      unseen[round] = (unseen[round] as number) + fresh.length;
      unseenPrecision[round] =
        (unseenPrecision[round] as number) + fresh.filter((d) => relevant.includes(d)).length / shown;
      for (const d of fresh) seen.add(d);
      const counts = interestCategories.map((c) => page.filter((d) => labels[d] === c).length / shown);
      counts.forEach((share, slot) => {
        (shares[round] as number[])[slot] = ((shares[round] as number[])[slot] as number) + share;
      });
      const quota = 1 / interestCategories.length;
      if (counts.some((share) => share < quota / 2)) belowHalf[round] = (belowHalf[round] as number) + 1;
      const servedCounts = interestCategories.map((_, slot) => served.filter((s) => s === slot).length / shown);
      if (servedCounts.some((share) => share < quota / 2))
        belowHalfServed[round] = (belowHalfServed[round] as number) + 1;
      // The reader rates what they see: favourites the relevant ones, dismisses up to 5 others.
      for (const d of relevant) if (!liked.includes(d)) liked.push(d);
      for (const d of page.filter((d) => !relevant.includes(d)).slice(0, dismissPerRound)) dismissed.add(d);
    }
  }
  const mean = (value: number) => value / Math.max(readers, 1);
  // Slots 1 and 2 are averaged over the readers who have them (every reader has slot 1, half have slot 2).
  const slotReaders = [readers, readers, Math.floor(readers / 2)];
  return {
    method: method.name,
    precision: precision.map(mean),
    unseen: unseen.map(mean),
    unseenPrecision: unseenPrecision.map(mean),
    shares: shares.map((round) => round.map((sum, slot) => sum / Math.max(slotReaders[slot] as number, 1))),
    belowHalfQuota: belowHalf.map(mean),
    belowHalfQuotaServed: belowHalfServed.map(mean),
    readers,
  };
}
