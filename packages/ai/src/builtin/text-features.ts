/**
 * Turning text into terms for the built-in embedders: lower-cased English words with a light plural
 * stemmer, English stop words removed, adjacent-word bigrams, and character bigrams of Chinese runs
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

const WORD = /[a-z][a-z0-9]*(?:[-'][a-z0-9]+)*/g;
const HAN_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;

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

/** Content words of a text in order (stop words and numbers dropped). */
export function contentWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.toLowerCase().matchAll(WORD)) {
    const raw = match[0];
    if (raw.length < 2 || STOP_WORDS.has(raw)) continue;
    const stem = stemWord(raw.replace(/-/g, ''));
    if (stem.length < 2 || STOP_WORDS.has(stem)) continue;
    words.push(stem);
  }
  return words;
}

/**
 * Terms of a text with their counts: words, bigrams of consecutive content words (a stop word
 * between them breaks the pair), and Chinese character bigrams.
 */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (term: string) => counts.set(term, (counts.get(term) ?? 0) + 1);
  const lower = text.toLowerCase();
  let previous: string | undefined;
  let lastEnd = -1;
  for (const match of lower.matchAll(WORD)) {
    const raw = match[0];
    const start = match.index ?? 0;
    // Punctuation other than spaces between two words (a comma, a full stop) also breaks a bigram.
    const gap = lastEnd >= 0 ? lower.slice(lastEnd, start) : '';
    lastEnd = start + raw.length;
    if (/[^\s]/.test(gap)) previous = undefined;
    if (raw.length < 2 || STOP_WORDS.has(raw)) {
      previous = undefined;
      continue;
    }
    const stem = stemWord(raw.replace(/-/g, ''));
    if (stem.length < 2 || STOP_WORDS.has(stem)) {
      previous = undefined;
      continue;
    }
    add(stem);
    if (previous) add(`${previous} ${stem}`);
    previous = stem;
  }
  for (const match of text.matchAll(HAN_RUN)) {
    const run = match[0];
    if (run.length === 1) add(run);
    for (let i = 0; i + 1 < run.length; i++) add(run.slice(i, i + 2));
  }
  return counts;
}
