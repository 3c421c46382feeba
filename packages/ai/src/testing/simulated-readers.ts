import { RECOMMENDATION_PAGING, seededRandom } from '@radar/shared';
import { learnedProfileVector } from '../learning/profile-learning';
import {
  CLASSIFIER_MIN_SIGNALS,
  CLASSIFIER_OPTIONS,
  type ClassifierOptions,
  classifierScore,
  fitReaderClassifier,
  RANDOM_NEGATIVE_WEIGHT,
  RANDOM_NEGATIVES_MIN,
  RANDOM_NEGATIVES_PER_SIGNAL,
  signalWeight,
  type TrainingExample,
} from '../learning/reader-classifier';

/**
 * Simulated readers with several interests who rate what they see (issue 23, `pnpm bench:quality`).
 * A reader follows 2 or 3 of the labelled set's categories; their research summary is the mean of one
 * paper of each (the seeds, never ranked). Each round is a visit to /papers as the product answers it
 * (issue 31): the reader's ranking without the papers the product keeps out (listablePapers: 👎 always,
 * 👍 unless the method keeps them, the seeds as the reader's own works), in pages of `shown`; the reader
 * pages on (加载更多, exclude_ids) until `shown` papers they had not seen before are on screen or the list
 * ends, and rates them: 👍 when the category is one of theirs, 👎 otherwise. Per round (round 0: before
 * any rating, the same for every method): the precision of those unseen papers (out of `shown`), how
 * many unseen papers the first page brought, the pages opened, and each interest's share.
 *
 * The methods are a table (READER_METHODS): each turns what a reader has done so far into a score per
 * paper; adding a method is one entry.
 */

/** What a method may use: the reader's summary and interests, the ratings so far, every paper's vector. */
export interface SimulatedReader {
  /** The research summary's vector (L2-normalised mean of the seeds). */
  profile: readonly number[];
  /** The categories the reader follows, and each one's seed paper. */
  interests: readonly { label: string; seed: number }[];
  /** Ratings so far, in the order given: paper index, 1 (👍) or -1 (👎), and the round it was given in. */
  ratings: readonly { paper: number; value: 1 | -1; round: number }[];
  /** The round about to be shown (1..rounds). */
  round: number;
  vectors: readonly (readonly number[])[];
  /** Papers the list keeps out this round (listablePapers): the seeds and the papers rated (👍 unless kept). */
  excluded: ReadonlySet<number>;
}

export interface ReaderMethod {
  name: string;
  /** 含已评价: the list keeps the papers rated 👍 (the product's include_rated=true); 👎 stay out. */
  includeRated?: boolean;
  /** The ranking score of every paper (excluded ones are skipped by the caller). */
  scores: (reader: SimulatedReader) => (paper: number) => number;
}

/** The reader's liked and disliked vectors so far. */
const ratedVectors = (reader: SimulatedReader, value: 1 | -1) =>
  reader.ratings.filter((r) => r.value === value).map((r) => reader.vectors[r.paper] as number[]);

const cosineTo = (reader: SimulatedReader, profile: readonly number[]) => (paper: number) =>
  dot(profile, reader.vectors[paper] as number[]);

/** Rocchio, as the product learns today (learnedProfileVector and LEARNING_WEIGHTS). */
const rocchio = (reader: SimulatedReader) =>
  cosineTo(reader, learnedProfileVector([...reader.profile], ratedVectors(reader, 1), ratedVectors(reader, -1)));

/**
 * The training set of the product's classifier from a simulated reader: the summary and the 👍 as
 * positives, the 👎 as negatives, each weighted by its age (a round is a week), and unrated papers
 * chosen by a fixed pseudo-random order as weak negatives.
 */
function simulatedTrainingSet(reader: SimulatedReader): TrainingExample[] {
  const examples: TrainingExample[] = [{ vector: reader.profile, label: 1, weight: 1 }];
  for (const rating of reader.ratings)
    examples.push({
      vector: reader.vectors[rating.paper] as number[],
      label: rating.value === 1 ? 1 : 0,
      weight: signalWeight((reader.round - rating.round) * 7),
    });
  const wanted = Math.max(RANDOM_NEGATIVES_MIN, RANDOM_NEGATIVES_PER_SIGNAL * reader.ratings.length);
  const n = reader.vectors.length;
  const seed = reader.interests.reduce((sum, interest) => sum * 31 + interest.seed, 7);
  // Never a rated paper, even one the list keeps (includeRated).
  const rated = new Set(reader.ratings.map((rating) => rating.paper));
  for (let i = 0, taken = 0; i < n && taken < wanted; i++) {
    const paper = (seed * 7919 + i * 104_729) % n;
    if (reader.excluded.has(paper) || rated.has(paper)) continue;
    examples.push({ vector: reader.vectors[paper] as number[], label: 0, weight: RANDOM_NEGATIVE_WEIGHT });
    taken++;
  }
  return examples;
}

/** The classifier from `minSignals` ratings on, Rocchio below (as the product switches). */
export const classifierMethod = (
  name: string,
  minSignals = CLASSIFIER_MIN_SIGNALS,
  options: ClassifierOptions = CLASSIFIER_OPTIONS,
): ReaderMethod => ({
  name,
  scores: (reader) => {
    if (reader.ratings.length < minSignals) return rocchio(reader);
    const classifier = fitReaderClassifier(simulatedTrainingSet(reader), options);
    return classifier ? (paper) => classifierScore(classifier, reader.vectors[paper] as number[]) : rocchio(reader);
  },
});

/** plain, Rocchio (the product before issue 23) and the classifier; others append their entry. */
export const READER_METHODS: ReaderMethod[] = [
  { name: 'plain', scores: (reader) => cosineTo(reader, reader.profile) },
  { name: 'rocchio', scores: rocchio },
  classifierMethod('classifier'),
];

export interface MultiInterestOptions {
  /** Readers simulated (default 120). */
  readers?: number;
  /** Rounds of rating after the first page (default 5). */
  rounds?: number;
  /** Papers shown (and rated) per round, the k of precision@k (default 20). */
  shown?: number;
  methods?: readonly ReaderMethod[];
  /** Seed of the readers' draw (default 23). */
  seed?: number;
  /** Papers of the page the reader rates, the top first (default all shown); the rest stay unrated. */
  ratedPerRound?: number;
  /** Called with the unseen papers of each visit before the reader rates them (the ratings so far are the reader's). */
  observePage?: ((reader: SimulatedReader, page: readonly number[], method: string) => void) | undefined;
}

export interface MethodRounds {
  /** Mean precision per round 0..rounds of the first `shown` unseen papers of the visit (out of `shown`). */
  precision: number[];
  /** Mean number of unseen papers on the visit's first page, per round. */
  unseenOnFirstPage: number[];
  /** Mean number of pages opened to reach `shown` unseen papers (or the end of the list), per round. */
  pages: number[];
  /** Per round, the mean over readers of the smallest share of one interest in the page. */
  smallestInterestShare: number[];
}

export interface MultiInterestResult {
  readers: number;
  methods: Record<string, MethodRounds>;
}

/** Draws the readers (deterministic) and runs every method on each; see the file's comment. */
export function simulateMultiInterestReaders(
  labels: readonly string[],
  vectors: readonly (readonly number[])[],
  options: MultiInterestOptions = {},
): MultiInterestResult {
  const { readers = 120, rounds = 5, shown = 20, methods = READER_METHODS, seed = 23 } = options;
  const ratedPerRound = options.ratedPerRound ?? shown;
  const categories = [...new Set(labels)].sort();
  const byCategory = new Map(categories.map((c) => [c, labels.flatMap((l, i) => (l === c ? [i] : []))]));
  const random = seededRandom(seed);
  const drawn = Array.from({ length: readers }, () => {
    const count = categories.length <= 2 ? categories.length : random() < 0.5 ? 2 : 3;
    const chosen = shuffle([...categories], random).slice(0, count);
    return chosen.map((label) => {
      const members = byCategory.get(label) as number[];
      return { label, seed: members[Math.floor(random() * members.length)] as number };
    });
  });

  const result: Record<string, MethodRounds> = {};
  for (const method of methods) {
    const precision = new Array<number>(rounds + 1).fill(0);
    const smallest = new Array<number>(rounds + 1).fill(0);
    const unseenOnFirstPage = new Array<number>(rounds + 1).fill(0);
    const pagesOpened = new Array<number>(rounds + 1).fill(0);
    for (const interests of drawn) {
      const profile = normalised(
        interests
          .map((i) => vectors[i.seed] as number[])
          .reduce(
            (sum, v) => sum.map((x, j) => x + (v[j] as number)),
            new Array<number>(vectors[0]?.length ?? 0).fill(0),
          ),
      );
      const wanted = new Set(interests.map((i) => i.label));
      const seeds = interests.map((i) => i.seed);
      const ratings: { paper: number; value: 1 | -1; round: number }[] = [];
      const seen = new Set<number>();
      for (let round = 0; round <= rounds; round++) {
        const excluded = judgedPapers(seeds, ratings, method.includeRated === true);
        const reader: SimulatedReader = { profile, interests, ratings, round, vectors, excluded };
        const visit = visitList(rankedList(vectors.length, excluded, method.scores(reader)), seen, shown);
        const page = visit.unseen;
        options.observePage?.(reader, page, method.name);
        const relevant = page.filter((p) => wanted.has(labels[p] as string)).length;
        precision[round] = (precision[round] as number) + relevant / shown;
        unseenOnFirstPage[round] = (unseenOnFirstPage[round] as number) + visit.unseenOnFirstPage;
        pagesOpened[round] = (pagesOpened[round] as number) + visit.pages;
        const shares = interests.map((i) => page.filter((p) => labels[p] === i.label).length / shown);
        smallest[round] = (smallest[round] as number) + Math.min(...shares);
        for (const paper of page) seen.add(paper);
        for (const paper of page.slice(0, ratedPerRound)) {
          ratings.push({ paper, value: wanted.has(labels[paper] as string) ? 1 : -1, round });
        }
      }
    }
    const mean = (values: number[]) => values.map((value) => value / readers);
    result[method.name] = {
      precision: mean(precision),
      unseenOnFirstPage: mean(unseenOnFirstPage),
      pages: mean(pagesOpened),
      smallestInterestShare: mean(smallest),
    };
  }
  return { readers, methods: result };
}

/**
 * The papers /papers keeps out of a simulated reader's list. Mirrors rule 3 of
 * packages/db/src/repositories/reader-eligibility.ts (judgedItemsQuery), which the product applies in
 * SQL: 👎 always out, 👍 out unless the reader keeps them (含已评价, include_rated), the reader's own works
 * (here the seeds) never recommended to them. The simulated readers never mark 不感兴趣 (also out there).
 */
function judgedPapers(
  seeds: readonly number[],
  ratings: readonly { paper: number; value: 1 | -1 }[],
  includeRated: boolean,
): Set<number> {
  const judged = new Set(seeds);
  for (const { paper, value } of ratings) if (value === -1 || !includeRated) judged.add(paper);
  return judged;
}

/** The whole list, best first: every paper not excluded, by score. */
function rankedList(n: number, excluded: ReadonlySet<number>, score: (paper: number) => number): number[] {
  const scored: { paper: number; score: number }[] = [];
  for (let paper = 0; paper < n; paper++) if (!excluded.has(paper)) scored.push({ paper, score: score(paper) });
  return scored.sort((a, b) => b.score - a.score || a.paper - b.paper).map((s) => s.paper);
}

/**
 * One visit: the first page of `shown`, then 加载更多 (exclude_ids = every paper of the visit's pages, so the
 * next page is the list's next `shown`) until `shown` papers not seen before are on screen, the list ends,
 * or exclude_ids would pass the contract's cap (RECOMMENDATION_PAGING.maxShown). The reader reads down
 * the pages and stops at the `shown`-th unseen paper.
 */
function visitList(list: readonly number[], seen: ReadonlySet<number>, shown: number) {
  const unseen: number[] = [];
  let pages = 0;
  let unseenOnFirstPage = 0;
  for (let offset = 0; unseen.length < shown && offset < list.length; offset += shown) {
    if (offset > RECOMMENDATION_PAGING.maxShown) break;
    const fresh = list.slice(offset, offset + shown).filter((paper) => !seen.has(paper));
    if (pages === 0) unseenOnFirstPage = fresh.length;
    pages++;
    unseen.push(...fresh.slice(0, shown - unseen.length));
  }
  return { unseen, pages, unseenOnFirstPage };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

function normalised(vector: number[]): number[] {
  const norm = Math.hypot(...vector) || 1;
  return vector.map((x) => x / norm);
}

function dot(x: readonly number[], y: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < x.length; i++) sum += (x[i] as number) * (y[i] as number);
  return sum;
}
