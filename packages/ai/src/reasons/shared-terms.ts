import { englishWords, termCounts } from '../builtin/text-features';
import { isGenericTerm } from './generic-terms';
import type { TermWeighting } from './term-weighting';

/**
 * The profile terms a document shares with a research summary, most telling first, as they are
 * written in the document: what a recommendation names as its reason. Terms are the built-in
 * embedder's (termCounts: stemmed words, word bigrams, CJK character bigrams), so "networks" and
 * "network" are one term; a term scores its profile tf-idf weight times its document tf-idf weight.
 * Adjacent shared terms are shown as one phrase ("graph neural network", "图神经网络") in place of
 * their parts; words every abstract uses ("novel", "performance") are never named alone.
 */

const HAN_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;
/** Longest phrase shown, in English words and in Chinese characters. */
const MAX_PHRASE_WORDS = 4;
const MAX_HAN_CHARS = 8;
/** Function characters that make a poor first or last character of a shown Chinese term ('网络的' -> '网络'). */
const HAN_EDGE_FUNCTION_CHARS = new Set([...'的了和与及在是对为并或等以其将于把被']);

export interface WrittenWord {
  stem: string;
  /** As written (case kept), without a possessive "'s". */
  written: string;
}

interface Candidate {
  /** Stems joined by spaces (English), or the characters themselves (Chinese). */
  key: string;
  /** The stems of an English term; undefined for a Chinese one. */
  stems: string[] | undefined;
  score: number;
  /** How the document writes it, with the number of times. */
  written: Map<string, number>;
}

/**
 * Runs of content words that termCounts pairs into bigrams: a stop word, or anything but spaces
 * between two words, ends a run. Only words found here can be named.
 */
export function wordRuns(text: string): WrittenWord[][] {
  const runs: WrittenWord[][] = [];
  let run: WrittenWord[] = [];
  const endRun = () => {
    if (run.length) runs.push(run);
    run = [];
  };
  let lastEnd = -1;
  for (const word of englishWords(text)) {
    if (lastEnd >= 0 && /[^\s]/.test(text.slice(lastEnd, word.start))) endRun();
    lastEnd = word.end;
    // A LaTeX command (\mathsf) is markup, not a word of the text.
    if (!word.term || text[word.start - 1] === '\\') {
      endRun();
      continue;
    }
    run.push({ stem: word.term, written: word.raw.replace(/'s?$/i, '') });
  }
  endRun();
  return runs;
}

function trimHanEdges(term: string): string {
  let start = 0;
  let end = term.length;
  while (start < end && HAN_EDGE_FUNCTION_CHARS.has(term[start] as string)) start++;
  while (end > start && HAN_EDGE_FUNCTION_CHARS.has(term[end - 1] as string)) end--;
  return term.slice(start, end);
}

/** Whether `outer` already shows `inner`: a contiguous part of the same phrase. */
function covers(outer: Candidate, inner: Candidate): boolean {
  if (outer.stems && inner.stems) return ` ${outer.key} `.includes(` ${inner.key} `);
  if (!outer.stems && !inner.stems) return outer.key.includes(inner.key);
  return false;
}

/**
 * Up to `limit` terms that both texts contain, highest weighted first, spelled as written: a spelling
 * both texts contain when there is one, else the document's; each word in lower case unless it is
 * only ever capitalised (acronyms). Terms the weighting does not know are left out. `excluding`
 * leaves out terms made only of that text's words (the keyword a recommendation already names).
 */
export function sharedProfileTerms(
  profileText: string,
  documentText: string,
  weighting: TermWeighting,
  limit = 3,
  options: { excluding?: string } = {},
): string[] {
  if (limit <= 0 || !profileText.trim() || !documentText.trim()) return [];
  const {
    counts: profileCounts,
    runs: profileRuns,
    phrases: profilePhrases,
    forms: profileForms,
    hanRuns: profileHanRuns,
    comparable: inProfile,
  } = profileSide(profileText);
  const documentCounts = termCounts(documentText);
  const scoreOf = (term: string): number | undefined => {
    const inProfile = profileCounts.get(term);
    const inDocument = documentCounts.get(term);
    if (!inProfile || !inDocument) return undefined;
    const weight = weighting.weight(term);
    if (weight === undefined || !(weight > 0)) return undefined;
    return (1 + Math.log(inProfile)) * weight * ((1 + Math.log(inDocument)) * weight);
  };

  const candidates = new Map<string, Candidate>();
  const addCandidate = (key: string, stems: string[] | undefined, score: number, written: string) => {
    let candidate = candidates.get(key);
    if (!candidate) {
      candidate = { key, stems, score, written: new Map() };
      candidates.set(key, candidate);
    }
    candidate.written.set(written, (candidate.written.get(written) ?? 0) + 1);
  };

  // English: single words, and phrases whose every adjacent pair is a shared bigram. A phrase of
  // three words or more must also occur whole in the profile (its pairs alone could come from two places).
  const lowerCaseWords = new Set<string>();
  const documentRuns = wordRuns(documentText);
  for (const run of [...profileRuns, ...documentRuns]) {
    for (const word of run) if (word.written === word.written.toLowerCase()) lowerCaseWords.add(word.written);
  }
  for (const run of documentRuns) {
    for (let i = 0; i < run.length; i++) {
      for (let n = 1; n <= MAX_PHRASE_WORDS && i + n <= run.length; n++) {
        const part = run.slice(i, i + n);
        const stems = part.map((word) => word.stem);
        const key = stems.join(' ');
        let score: number | undefined;
        if (n === 1) {
          score = scoreOf(key);
          if (score === undefined) continue;
        } else {
          if (n >= 3 && !profilePhrases.has(key)) break;
          const pairScores = stems.slice(1).map((stem, k) => scoreOf(`${stems[k]} ${stem}`));
          if (pairScores.some((pair) => pair === undefined)) break;
          // A phrase ranks at least as high as any word in it, so it is listed instead of its words.
          const wordScores = stems.map(scoreOf).filter((word) => word !== undefined);
          score = Math.max(...(pairScores as number[]), ...wordScores);
        }
        addCandidate(key, stems, score, part.map((word) => word.written).join(' '));
      }
    }
  }

  // Chinese: the longest character runs the profile also contains, scored by their best character bigram.
  for (const match of documentText.matchAll(HAN_RUN)) {
    const run = match[0];
    for (let i = 0; i + 2 <= run.length; i++) {
      for (let n = 2; n <= MAX_HAN_CHARS && i + n <= run.length; n++) {
        const part = run.slice(i, i + n);
        if (!profileHanRuns.some((profileRun) => profileRun.includes(part))) break;
        const term = trimHanEdges(part);
        if (term.length < 2) continue;
        const bigramScores: number[] = [];
        for (let k = 0; k + 2 <= term.length; k++) {
          const score = scoreOf(term.slice(k, k + 2));
          if (score !== undefined) bigramScores.push(score);
        }
        if (bigramScores.length) addCandidate(term, undefined, Math.max(...bigramScores), term);
      }
    }
  }

  const excludedStems = new Set(
    options.excluding ? wordRuns(options.excluding).flatMap((run) => run.map((word) => word.stem)) : [],
  );
  const isExcluded = (candidate: Candidate) =>
    candidate.stems
      ? candidate.stems.every((stem) => excludedStems.has(stem))
      : (options.excluding ?? '').includes(candidate.key);
  const size = (candidate: Candidate) => candidate.stems?.length ?? candidate.key.length;
  const ranked = [...candidates.values()].sort(
    (a, b) => b.score - a.score || size(b) - size(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  const chosen: Candidate[] = [];
  for (const candidate of ranked) {
    if (chosen.length >= limit) break;
    if (isGenericTerm(candidate.stems, candidate.key) || isExcluded(candidate)) continue;
    if (chosen.some((outer) => covers(outer, candidate))) continue;
    chosen.push(candidate);
  }
  const inDocument = comparable(documentText);
  return chosen.map((candidate) => {
    if (!candidate.stems) return candidate.key;
    // A spelling found in both texts ('network' is in 'networks'), the document's most frequent first.
    const forms = [candidate.written, profileForms.get(candidate.key) ?? new Map<string, number>()].flatMap((written) =>
      [...written].sort((a, b) => b[1] - a[1]).map(([form]) => form),
    );
    const inBoth = (form: string) => inDocument.includes(comparable(form)) && inProfile.includes(comparable(form));
    return withLowerCaseWords(forms.find(inBoth) ?? (forms[0] as string), lowerCaseWords);
  });
}

const comparable = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

/** What sharedProfileTerms reads of the profile text: functions of that text alone. */
interface ProfileSide {
  text: string;
  counts: Map<string, number>;
  runs: WrittenWord[][];
  /** Phrases of three words or more, as stems joined by spaces. */
  phrases: Set<string>;
  /** Each phrase of up to MAX_PHRASE_WORDS words (stems joined by spaces): how the profile writes it. */
  forms: Map<string, Map<string, number>>;
  hanRuns: string[];
  comparable: string;
}

/**
 * The last profile text's side, kept until another text comes: a request's reasons compare one summary
 * with each of its items (20 by default), and the summary's words were read again for each. Keyed by
 * the whole text and never changed after it is built, so it is what reading the text again gives.
 */
let lastProfile: ProfileSide | undefined;

function profileSide(text: string): ProfileSide {
  if (lastProfile?.text === text) return lastProfile;
  const runs = wordRuns(text);
  const phrases = new Set<string>();
  const forms = new Map<string, Map<string, number>>();
  for (const run of runs) {
    for (let i = 0; i < run.length; i++) {
      for (let n = 1; n <= MAX_PHRASE_WORDS && i + n <= run.length; n++) {
        const part = run.slice(i, i + n);
        const key = part.map((word) => word.stem).join(' ');
        if (n >= 3) phrases.add(key);
        const written = forms.get(key) ?? new Map<string, number>();
        const form = part.map((word) => word.written).join(' ');
        written.set(form, (written.get(form) ?? 0) + 1);
        forms.set(key, written);
      }
    }
  }
  lastProfile = {
    text,
    counts: termCounts(text),
    runs,
    phrases,
    forms,
    hanRuns: [...text.matchAll(HAN_RUN)].map((match) => match[0]),
    comparable: comparable(text),
  };
  return lastProfile;
}

/** Each word in lower case when either text writes it so ("Graph Neural Networks" in a title -> "graph neural networks"). */
function withLowerCaseWords(form: string, lowerCaseWords: Set<string>): string {
  return form
    .split(' ')
    .map((word) => (lowerCaseWords.has(word.toLowerCase()) ? word.toLowerCase() : word))
    .join(' ');
}
