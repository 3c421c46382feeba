import { contentWords } from '../builtin/text-features';
import { isGenericTerm } from './generic-terms';
import { type WrittenWord, wordRuns } from './shared-terms';
import type { TermWeighting } from './term-weighting';

/**
 * The few most distinctive terms of a research summary, to search a bibliographic index with (the
 * per-reader OpenAlex query). A summary's noun phrases are its runs of content words (a stop word or
 * punctuation ends a run: "graph neural networks for drug discovery" -> "graph neural networks",
 * "drug discovery"). Without generic words at its edges ("novel", "models", as long as two words
 * remain), a run of two to four words is kept whole as a phrase; longer runs give their two- and
 * three-word parts. Runs of capitalised words only are names of people or institutions, left out. Single words come from the words of the summary no chosen phrase holds.
 * A term scores the sum of its words' specificity (the idf of `weighting` when given, a word it does
 * not know weighing the median; else 1 for a topical word) times 1 + log of how often the summary uses
 * it; words every abstract uses and words of a biography (professor, university, interests) count
 * nothing, and a term made only of them is never chosen.
 */

/** Words about the person rather than the research topic: never a search term on their own. */
const PROFILE_WORDS = new Set(
  contentWords(`
  professor associate assistant lecturer postdoc postdoctoral fellow researcher scientist student candidate
  phd doctor dr prof university universities institute institution academy college school department faculty
  laboratory lab group center centre team member director head chair visiting senior junior principal
  investigator interest interests focus focuses focused focusing area areas topic topics direction directions
  currently mainly primarily especially broadly broad specifically include includes including involve involves
  interested working worked works work focus research researches researching studies studying
  year years career publication publications published journal journals conference award
  combine combining address addressing elucidate elucidating uncover uncovering understand examine examining
  aim aims seek seeks characterize characterise characterizing employ employing
`),
);

const MAX_PHRASE_WORDS = 4;

interface TermCandidate {
  key: string;
  words: WrittenWord[];
  count: number;
  firstSeen: number;
  /** A part of a run too long to be one phrase. */
  isWindow: boolean;
}

export interface SummarySearchTermOptions {
  /** Most terms returned (default 6). */
  limit?: number;
  /** Idf of terms as termCounts spells them (the built-in model's vocabulary); without it every topical word weighs 1. */
  weighting?: TermWeighting | undefined;
}

const isWeakWord = (stem: string) => PROFILE_WORDS.has(stem) || isGenericTerm([stem], stem);

/** Drops generic or biography words at either edge while at least two words remain (none left when both are). */
function trimEdges(words: WrittenWord[]): WrittenWord[] {
  if (words.length < 2) return words;
  let start = 0;
  let end = words.length;
  while (end - start > 2 && isWeakWord((words[start] as WrittenWord).stem)) start++;
  while (end - start > 2 && isWeakWord((words[end - 1] as WrittenWord).stem)) end--;
  if (end - start === 2) {
    // Two words left: drop one more only if it is the only weak one ("research interests" -> nothing).
    const first = isWeakWord((words[start] as WrittenWord).stem);
    const last = isWeakWord((words[end - 1] as WrittenWord).stem);
    if (first && last) return [];
  }
  return words.slice(start, end);
}

/** How a term is written: as in the summary, lower-cased except acronyms and mixed case (RNA, mRNA, CRISPR). */
function spelled(words: WrittenWord[]): string {
  return words
    .map((word) => (/[A-Z]/.test(word.written.slice(1)) ? word.written : word.written.toLowerCase()))
    .join(' ');
}

export function summarySearchTerms(summary: string, options: SummarySearchTermOptions = {}): string[] {
  const limit = options.limit ?? 6;
  if (limit <= 0 || !summary.trim()) return [];
  const runs = wordRuns(summary);

  const candidates = new Map<string, TermCandidate>();
  let order = 0;
  const add = (words: WrittenWord[], isWindow = false) => {
    if (!words.length) return;
    const stems = words.map((word) => word.stem);
    if (stems.every(isWeakWord)) return;
    const key = stems.join(' ');
    const existing = candidates.get(key);
    if (existing) existing.count++;
    else candidates.set(key, { key, words, count: 1, firstSeen: order++, isWindow });
  };
  for (const whole of runs) {
    // Names of people and institutions ("Dr. Li", "School of Life Sciences"): every word capitalised.
    if (whole.every((word) => /^[A-Z][a-z'’-]+$/.test(word.written))) continue;
    const run = trimEdges(whole);
    if (run.length >= 2 && run.length <= MAX_PHRASE_WORDS) {
      add(run);
    } else if (run.length > MAX_PHRASE_WORDS) {
      for (let n = 2; n <= 3; n++) {
        for (let i = 0; i + n <= run.length; i++) {
          const part = run.slice(i, i + n);
          if (!isWeakWord((part[0] as WrittenWord).stem) && !isWeakWord((part[n - 1] as WrittenWord).stem)) {
            add(part, true);
          }
        }
      }
    }
    for (const word of whole) add([word]);
  }

  const weighting = options.weighting;
  let unknownWeight = 1;
  if (weighting) {
    const known = [...candidates.values()]
      .flatMap((candidate) => candidate.words.map((word) => weighting.weight(word.stem)))
      .filter((weight): weight is number => weight !== undefined)
      .sort((a, b) => a - b);
    // A vocabulary leaves out words too rare and too common alike: a word it lacks weighs the median.
    unknownWeight = known.length ? (known[Math.floor(known.length / 2)] as number) : 1;
  }
  const specificity = (stem: string) => {
    if (isWeakWord(stem)) return 0;
    if (!weighting) return 1;
    return weighting.weight(stem) ?? unknownWeight;
  };
  const scoreOf = (candidate: TermCandidate) =>
    candidate.words.reduce((sum, word) => sum + specificity(word.stem), 0) * (1 + Math.log(candidate.count));

  const ranked = [...candidates.values()]
    .map((candidate) => ({ candidate, score: scoreOf(candidate) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.candidate.firstSeen - b.candidate.firstSeen);

  const chosen: TermCandidate[] = [];
  const chosenStems = new Set<string>();
  for (const { candidate } of ranked) {
    if (chosen.length >= limit) break;
    const stems = candidate.words.map((word) => word.stem);
    // A term adds something only with a topical word no chosen term has yet.
    if (stems.every((stem) => chosenStems.has(stem) || isWeakWord(stem))) continue;
    // Parts of one long run overlap: keep the best of overlapping parts only.
    if (candidate.isWindow && chosen.some((other) => overlapsWithin(other.key, candidate.key))) continue;
    chosen.push(candidate);
    for (const stem of stems) chosenStems.add(stem);
  }
  // Phrases first, then single words, each in the order the summary names them.
  return chosen
    .sort((a, b) => Number(b.words.length > 1) - Number(a.words.length > 1) || a.firstSeen - b.firstSeen)
    .map((candidate) => spelled(candidate.words));
}

/** Whether two multiword terms share a word at the edge where one would continue the other ("rna sequencing" and "sequencing data"). */
function overlapsWithin(a: string, b: string): boolean {
  const left = a.split(' ');
  const right = b.split(' ');
  if (left.length < 2 || right.length < 2) return false;
  return left.some((stem) => right.includes(stem));
}
