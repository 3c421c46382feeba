import { termCounts } from '@radar/ai';
import type { ProfileNeighbour, TermFrequency } from '@radar/db';
import type { KeywordSuggestionsResponse } from '@radar/shared';

/**
 * How GET /user-rkeywords/ suggests keywords (docs: server/README.md, "Keyword suggestions").
 *
 * 1. Candidates come from the profile. From the papers nearest to the profile vector (up to 50, same
 *    embedding model): their keywords, and the words and two-word phrases of their titles (stop words
 *    dropped, plurals folded; a title term must occur in at least 2 of those titles); each counts with
 *    the paper's share of the neighbours' total similarity, so a term found in most close papers gets
 *    close to 1 (title terms count half, single words 0.6 of that). From the English research summary: its words and
 *    two-word phrases, each a flat 1 (single words 0.6).
 * 2. Only terms that match papers count, matched as keyword alerts match them (the same tsquery over
 *    the papers' search_vector): a term matching no paper is dropped (its alert would never fire), and
 *    so is one matching more than half of a corpus of at least 20 papers (too common to pick anything
 *    out). Rarer terms weigh more: the weight is multiplied by 0.5 + 0.5 * ln(1 + N/df) / ln(1 + N)
 *    (N papers, df of them matching), so rarity breaks ties without outweighing the profile.
 * 3. Terms with the same tsquery ("graph neural networks", "graph neural network") are one suggestion,
 *    shown under the spelling that contributed most. Terms the user follows, or that are part of a
 *    followed phrase, are left out. A word or phrase inside a longer suggestion scoring at least half
 *    as much is folded into it ("graph neural" into "graph neural networks"). The best 20 are returned
 *    with scores relative to the first (1).
 *
 * `source` names the part that contributed most: the similar papers or the research summary.
 */

export const SUGGESTION_RULES = {
  neighbours: 50,
  /** Candidates whose corpus frequency is looked up (the strongest by profile weight). */
  candidates: 80,
  /** Document frequencies are counted up to this. */
  frequencyCap: 10_000,
  /** A term in more than this share of the corpus is too common ... */
  maxCorpusShare: 0.5,
  /** ... once the corpus has at least this many papers. */
  minCorpusForShare: 20,
  titleWeight: 0.5,
  /** Papers among the nearest whose titles must have a term for the titles alone to suggest it. */
  minTitlePapers: 2,
  singleWordWeight: 0.6,
  /** Rarity multiplies the weight by between this (a term in every paper) and 1 (a term in one paper). */
  rarityFloor: 0.5,
  /** A sub-phrase is folded into a longer suggestion scoring at least this share of its own score. */
  subsumeRatio: 0.5,
  paperShare: 0.6,
  summaryShare: 0.4,
  keywordsPerPaper: 20,
} as const;

type Source = KeywordSuggestionsResponse['keywords'][number]['source'];

export interface Candidate {
  name: string;
  /** 0-1: the similarity-weighted share of the nearest papers that have the term. */
  papers: number;
  /** 0-1: whether (and how strongly) the research summary has it. */
  summary: number;
  /** Nearest papers that list it as a keyword, and that have it only in the title. */
  keywordPapers: number;
  titlePapers: number;
}

/** Chinese character bigrams of termCounts() are search units, not words anyone would follow. */
const CJK_FRAGMENT = /^[\u3400-\u9fff\uf900-\ufaff]{1,2}$/;
const NUMBER = /^[\d\s.,:/-]+$/;

const isUsable = (term: string) =>
  term.length >= 2 && term.length <= 100 && !NUMBER.test(term) && !CJK_FRAGMENT.test(term);

/** Words and two-word phrases of a text (lower case, plurals folded), each once, with their weight. */
function phrasesOf(text: string): [string, number][] {
  return [...termCounts(text).keys()]
    .filter(isUsable)
    .map((term) => [term, term.includes(' ') ? 1 : SUGGESTION_RULES.singleWordWeight]);
}

/** Step 1: the candidate terms of a profile, by lower-cased name, with their paper and summary weights. */
export function collectCandidates(neighbours: ProfileNeighbour[], summary: string): Candidate[] {
  const byName = new Map<string, Candidate>();
  const add = (name: string, from: 'keyword' | 'title' | 'summary', weight: number) => {
    const display = name.replace(/\s+/g, ' ').trim();
    if (!isUsable(display)) return;
    const key = display.toLowerCase();
    const candidate = byName.get(key) ?? { name: display, papers: 0, summary: 0, keywordPapers: 0, titlePapers: 0 };
    if (from === 'summary') {
      candidate.summary = Math.max(candidate.summary, weight);
    } else {
      candidate.papers += weight;
      if (from === 'keyword') candidate.keywordPapers++;
      else candidate.titlePapers++;
    }
    byName.set(key, candidate);
  };

  const total = neighbours.reduce((sum, paper) => sum + Math.max(paper.similarity, 0), 0);
  if (total > 0) {
    for (const paper of neighbours) {
      const share = Math.max(paper.similarity, 0) / total;
      if (share === 0) continue;
      // Each term once per paper, at its strongest: a keyword that is also in the title counts as a keyword.
      const terms = new Map<string, [string, 'keyword' | 'title', number]>();
      for (const [term, weight] of phrasesOf(paper.title)) {
        terms.set(term, [term, 'title', weight * SUGGESTION_RULES.titleWeight]);
      }
      for (const keyword of paper.keywords.slice(0, SUGGESTION_RULES.keywordsPerPaper)) {
        terms.set(keyword.trim().toLowerCase(), [keyword, 'keyword', 1]);
      }
      for (const [name, from, weight] of terms.values()) add(name, from, weight * share);
    }
  }
  for (const [term, weight] of phrasesOf(summary)) add(term, 'summary', weight);

  return (
    [...byName.values()]
      // Pairs of adjacent title words are often no phrase at all ("networks meet"): a title term needs
      // to recur in the neighbourhood, unless a paper's keywords or the summary name it too.
      .filter((c) => c.keywordPapers > 0 || c.summary > 0 || c.titlePapers >= SUGGESTION_RULES.minTitlePapers)
      .sort((a, b) => weightOf(b) - weightOf(a) || a.name.localeCompare(b.name))
      .slice(0, SUGGESTION_RULES.candidates)
  );
}

const weightOf = (candidate: Candidate) =>
  SUGGESTION_RULES.paperShare * Math.min(candidate.papers, 1) + SUGGESTION_RULES.summaryShare * candidate.summary;

/** The lexemes of a tsquery's text, in order: `'graph' <-> 'neural' <-> 'network'` -> graph, neural, network. */
const lexemesOf = (queryKey: string) => [...queryKey.matchAll(/'((?:[^']|'')*)'/g)].map((match) => match[1] ?? '');

/** Whether `inner` occurs in `outer` as a run of consecutive lexemes (a sub-phrase, or the same phrase). */
const isWithin = (inner: string[], outer: string[]) =>
  inner.length > 0 && `\u0001${outer.join('\u0001')}\u0001`.includes(`\u0001${inner.join('\u0001')}\u0001`);

interface Suggestion {
  name: string;
  lexemes: string[];
  /** The strongest single spelling's weight, to pick the name shown. */
  top: number;
  papers: number;
  summary: number;
}

const rawScore = (entry: Suggestion) => entry.papers + entry.summary;

/** Steps 2 and 3: weigh the candidates by corpus frequency, merge equivalent ones, rank. */
export function rankSuggestions(options: {
  candidates: Candidate[];
  frequencies: TermFrequency[];
  corpusSize: number;
  /** tsquery keys and lower-cased names of the keywords the user follows. */
  followed: { queryKeys: string[]; names: string[] };
  limit: number;
}): KeywordSuggestionsResponse['keywords'] {
  const { corpusSize } = options;
  const frequencyOf = new Map(options.frequencies.map((frequency) => [frequency.term, frequency]));
  const followedLexemes = options.followed.queryKeys.map(lexemesOf);
  const followedNames = new Set(options.followed.names);
  const merged = new Map<string, Suggestion>();

  for (const candidate of options.candidates) {
    const frequency = frequencyOf.get(candidate.name);
    if (!frequency || frequency.documentFrequency === 0 || corpusSize === 0) continue;
    const df = frequency.documentFrequency;
    if (corpusSize >= SUGGESTION_RULES.minCorpusForShare && df / corpusSize > SUGGESTION_RULES.maxCorpusShare) continue;
    const lexemes = lexemesOf(frequency.queryKey);
    // Followed already, or part of a followed phrase ("molecular" when following "molecular property prediction").
    if (followedNames.has(candidate.name.toLowerCase())) continue;
    if (followedLexemes.some((followed) => isWithin(lexemes, followed))) continue;
    const rarity =
      SUGGESTION_RULES.rarityFloor +
      (1 - SUGGESTION_RULES.rarityFloor) * (Math.log(1 + corpusSize / df) / Math.log(1 + corpusSize));
    const papers = SUGGESTION_RULES.paperShare * Math.min(candidate.papers, 1) * rarity;
    const summary = SUGGESTION_RULES.summaryShare * candidate.summary * rarity;
    const entry = merged.get(frequency.queryKey);
    if (!entry) {
      merged.set(frequency.queryKey, { name: candidate.name, lexemes, top: papers + summary, papers, summary });
      continue;
    }
    if (papers + summary > entry.top) Object.assign(entry, { name: candidate.name, top: papers + summary });
    entry.papers = Math.min(entry.papers + papers, SUGGESTION_RULES.paperShare);
    entry.summary = Math.max(entry.summary, summary);
  }

  // A word or phrase inside a longer suggestion that scores at least half as much ("graph neural" in
  // "graph neural networks") is that suggestion's evidence, not a suggestion of its own.
  const byLength = [...merged.values()].sort((a, b) => b.lexemes.length - a.lexemes.length);
  const kept: Suggestion[] = [];
  for (const entry of byLength) {
    const longer = kept.find(
      (other) =>
        other.lexemes.length > entry.lexemes.length &&
        isWithin(entry.lexemes, other.lexemes) &&
        rawScore(other) >= SUGGESTION_RULES.subsumeRatio * rawScore(entry),
    );
    if (!longer) {
      kept.push(entry);
      continue;
    }
    longer.papers = Math.max(longer.papers, entry.papers);
    longer.summary = Math.max(longer.summary, entry.summary);
  }

  const ranked = kept
    .map((entry) => ({
      name: entry.name,
      raw: rawScore(entry),
      source: (entry.papers >= entry.summary ? 'similar_papers' : 'research_summary') as Source,
    }))
    .sort((a, b) => b.raw - a.raw || a.name.localeCompare(b.name))
    .slice(0, options.limit);
  const best = ranked[0]?.raw ?? 0;
  return ranked.map((entry) => ({
    name: entry.name,
    score: best > 0 ? Math.round((entry.raw / best) * 1000) / 1000 : 0,
    source: entry.source,
  }));
}
