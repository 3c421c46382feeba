/**
 * Turning text into terms for the built-in embedders: lower-cased English words with a light plural
 * stemmer (acronyms kept apart in capitals: englishWords), English stop words removed, adjacent-word bigrams, and character bigrams of Chinese runs
 * (Chinese has no spaces; character bigrams are the standard segmentation-free unit).
 */

// A compact English stop-word list (function words, plus words every abstract uses about itself).
const STOP_WORDS = new Set(
  `a about above across after again against all almost along already also although always am among an and
  another any anyone anything are around as at be became because become becomes been before being below
  between both but by can cannot could did do does doing done down during each either else enough etc even
  ever every few for from further had has have having he her here hers herself him himself his how however
  i if in into is it its itself just least less let like made make makes many may me might more most much
  must my myself neither no nor not now of off often on once one only onto or other others otherwise our
  ours ourselves out over own per perhaps rather same several she should since so some such than that the
  their theirs them themselves then there therefore these they this those though through thus to together
  too toward towards under until up upon us use used uses using very via was we well were what whatever when
  where whereas whether which while who whom whose why will with within without would yet you your yours
  yourself yourselves paper propose proposed present presents show shows shown new based approach approaches
  method methods result results work study also et al e g i e`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * The term of a word that is not kept as an acronym, by the word as written: a corpus repeats the same
 * few thousand words, so each is lower-cased and stemmed once (the largest part of tokenising a text).
 * Bounded: emptied when it reaches FOLDED_CACHE_SIZE words.
 */
const foldedCache = new Map<string, string | undefined>();
const FOLDED_CACHE_SIZE = 200_000;

function foldedTerm(raw: string): string | undefined {
  const cached = foldedCache.get(raw);
  if (cached !== undefined || foldedCache.has(raw)) return cached;
  let term: string | undefined;
  const lower = raw.toLowerCase();
  if (lower.length >= 2 && !STOP_WORDS.has(lower)) {
    const stem = stemWord(lower.replace(/-/g, ''));
    if (stem.length >= 2 && !STOP_WORDS.has(stem)) term = stem;
  }
  if (foldedCache.size >= FOLDED_CACHE_SIZE) foldedCache.clear();
  foldedCache.set(raw, term);
  return term;
}

/** English words, case kept (to tell acronyms from words). */
const CASED_WORD = /[A-Za-z][A-Za-z0-9]*(?:[-'][A-Za-z0-9]+)*/g;
const HAN_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;
/**
 * The acronym a word spells: all capitals with at least two letters, optionally a plural "s" or a
 * possessive "'s" ("STEM", "AIDS", "LLMs" -> "LLM", "COVID-19" -> "COVID19"); undefined for other words.
 */
function acronymOf(raw: string): string | undefined {
  let end = raw.length;
  if (raw.endsWith("'s")) end -= 2;
  else if (raw.endsWith('s')) end -= 1;
  let capitals = 0;
  for (let i = 0; i < end; i++) {
    const code = raw.charCodeAt(i);
    if (code >= 65 && code <= 90) capitals++;
    else if (!((code >= 48 && code <= 57) || code === 45)) return undefined; // digits and hyphens only
  }
  return capitals >= 2 ? raw.slice(0, end).replace(/-/g, '') : undefined;
}

const hasLowerCase = (word: string) => {
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code >= 97 && code <= 122) return true;
  }
  return false;
};
/** Words on each side that tell whether a capitalised word stands in mixed-case text. */
const CASE_CONTEXT_WORDS = 2;

/** Folds common English plural and possessive forms so "networks" and "network" count as one term. */
export function stemWord(word: string): string {
  let w = word.replace(/'s$/, '').replace(/'/g, '');
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (/(ss|us|is|ics)$/.test(w)) return w;
  if (w.endsWith('es') && /(ches|shes|xes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s')) w = w.slice(0, -1);
  return w;
}

/** One English word of a text: where it is, and its term (undefined for a stop word or a number-like token). */
export interface EnglishWord {
  start: number;
  end: number;
  /** As written. */
  raw: string;
  term: string | undefined;
}

/**
 * The English words of a text with their terms: lower-cased and stemmed (stemWord, hyphens dropped),
 * stop words left without a term. An acronym stays distinct from the word it spells: an all-capitals
 * word of 2+ letters whose neighbours (two words each side) include a word with a lower-case letter is
 * kept in capitals ("STEM" in "STEM education" is not "stem" in "stem cells"; "AIDS", "LASSO"; a plural
 * "LLMs" is "LLM"). In an all-capitals stretch (a title in capitals, a shouted heading) capitals say
 * nothing, so those words fold as usual, as does a capitalised first word ("Stem cells ...").
 */
export function englishWords(text: string): EnglishWord[] {
  const matches = [...text.matchAll(CASED_WORD)];
  let hasLower: boolean[] | undefined;
  const words: EnglishWord[] = new Array(matches.length);
  for (let index = 0; index < matches.length; index++) {
    const match = matches[index] as RegExpExecArray;
    const raw = match[0];
    const start = match.index;
    let term: string | undefined;
    const first = raw.charCodeAt(0);
    const acronym = first >= 65 && first <= 90 ? acronymOf(raw) : undefined;
    if (acronym) {
      hasLower ??= matches.map((other) => hasLowerCase(other[0]));
      let mixedCase = matches.length === 1;
      for (let k = 1; k <= CASE_CONTEXT_WORDS && !mixedCase; k++) {
        mixedCase = Boolean(hasLower[index - k] || hasLower[index + k]);
      }
      if (mixedCase) term = acronym;
    }
    if (term === undefined) term = foldedTerm(raw);
    words[index] = { start, end: start + raw.length, raw, term };
  }
  return words;
}

/** Content words of a text in order (stop words and numbers dropped), as englishWords spells their terms. */
export function contentWords(text: string): string[] {
  return englishWords(text).flatMap((word) => (word.term ? [word.term] : []));
}

const WHITESPACE = /\s/;

/** Whether text[start, end) is only whitespace (what /[^\s]/ finds none in), without a slice per gap. */
function isBlank(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code === 32) continue;
    if (code > 32 && code < 128) return false;
    if (!WHITESPACE.test(text[i] as string)) return false;
  }
  return true;
}

/**
 * Terms of a text with their counts: words, bigrams of consecutive content words (a stop word
 * between them breaks the pair), and Chinese character bigrams.
 */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (term: string) => counts.set(term, (counts.get(term) ?? 0) + 1);
  let previous: string | undefined;
  let lastEnd = -1;
  for (const word of englishWords(text)) {
    // Punctuation other than spaces between two words (a comma, a full stop) also breaks a bigram.
    if (lastEnd >= 0 && !isBlank(text, lastEnd, word.start)) previous = undefined;
    lastEnd = word.end;
    if (!word.term) {
      previous = undefined;
      continue;
    }
    add(word.term);
    if (previous) add(`${previous} ${word.term}`);
    previous = word.term;
  }
  for (const match of text.matchAll(HAN_RUN)) {
    const run = match[0];
    if (run.length === 1) add(run);
    for (let i = 0; i + 1 < run.length; i++) add(run.slice(i, i + 2));
  }
  return counts;
}
