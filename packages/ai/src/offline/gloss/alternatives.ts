import { cedictSenseVariants, loadCedict } from './cedict';
import { CURATED_OTHER_NAMES } from './research-terms';

/**
 * The English a glossed Chinese word is also searched as: papers write one concept several ways (gut
 * microbiota or gut microbiome, tumor or tumour), and a reader who types 肠道菌群 means all of them.
 * The draft and the embedding text keep the word's one gloss (its first English); only searches widen.
 */

/** Names of one concept papers use interchangeably: a gloss that is one of a group also searches the others. */
const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  ['gut microbiota', 'gut microbiome', 'intestinal microbiota', 'intestinal flora'],
  ['microbiota', 'microbiome'],
  ['tumor', 'cancer'],
  ['intestines', 'gut', 'intestinal'],
  ['single-cell sequencing', 'single-cell RNA sequencing', 'scRNA-seq'],
  ['gene editing', 'genome editing'],
  ['mouse', 'mice'],
  ['large language model', 'LLM'],
  ['inflammatory bowel disease', 'IBD'],
  ['perovskite solar cell', 'perovskite photovoltaic'],
  ['lithium-ion battery', 'lithium battery', 'Li-ion battery'],
  ['climate change', 'global warming'],
  ['archive', 'archival', 'records'],
];

const GROUP_OF = new Map<string, readonly string[]>();
for (const group of SYNONYM_GROUPS) for (const member of group) GROUP_OF.set(member.toLowerCase(), group);

/**
 * American and British spellings of a word (tumor/tumour, signaling/signalling, optimization/
 * optimisation, center/centre, anemia/anaemia): the stemmer of the search index joins inflections, not
 * spellings.
 */
const SPELLING_RULES: readonly [RegExp, string][] = [
  [/iz(e|es|ed|ing|ation|ations)$/, 'is$1'],
  [/yz(e|es|ed|ing)$/, 'ys$1'],
  [/(tum|behavi|col|lab|fav|hum|vap|neighb|rum)or(s|al)?$/, '$1our$2'],
  [/([^aeiou][aeiou])l(ing|ed)$/, '$1ll$2'],
  [/(cent|fib|met|lit|theat)er(s)?$/, '$1re$2'],
  [/^(an|leuk|h|hyp|p|orthop|gyn)(e)(mia|matolog|diatric|dic|colog)/, '$1ae$3'],
  [/^estrogen/, 'oestrogen'],
];

function spellingVariants(phrase: string): string[] {
  const words = phrase.split(' ');
  const out = new Set<string>();
  words.forEach((word, index) => {
    for (const [pattern, replacement] of SPELLING_RULES) {
      if (!pattern.test(word)) continue;
      const other = word.replace(pattern, replacement);
      if (other !== word) out.add([...words.slice(0, index), other, ...words.slice(index + 1)].join(' '));
    }
  });
  return [...out];
}

/**
 * The plural of a phrase's last word where English does not just add -s or -es (battery/batteries,
 * analysis/analyses, bacterium/bacteria, nucleus/nuclei, phenomenon/phenomena): news search matches each
 * English word as a prefix without stemming, so "battery" would not find "sodium-ion batteries".
 */
const IRREGULAR_PLURALS: readonly [RegExp, string][] = [
  [/([^aeiou])y$/, '$1ies'],
  [/sis$/, 'ses'],
  [/([a-z]{3})um$/, '$1a'],
  [/([a-z]{3})us$/, '$1i'],
  [/(phenomen|criteri)on$/, '$1a'],
];

function pluralVariants(phrase: string): string[] {
  const words = phrase.split(' ');
  const last = words[words.length - 1] ?? '';
  // An acronym or a name keeps its form; an adverb has none.
  if (!/^[a-z-]{4,}$/.test(last) || last.endsWith('ly')) return [];
  for (const [pattern, replacement] of IRREGULAR_PLURALS) {
    if (pattern.test(last)) return [[...words.slice(0, -1), last.replace(pattern, replacement)].join(' ')];
  }
  return [];
}

/** At most this many English alternatives are searched for one Chinese word (plurals not counted). */
const MAX_ALTERNATIVES = 8;

/** Dictionary senses longer than this are explanations ("stay behind to take care of things"), not names. */
const MAX_SENSE_WORDS = 3;
/** Dictionary senses searched for one word besides its gloss. */
const MAX_DICTIONARY_SENSES = 4;

/**
 * Every English a glossed word is searched as, its gloss first: the other names its curated entry
 * lists, the gloss's synonym group and
 * spellings, and for a dictionary word the near-synonyms CC-CEDICT gives in its first sense and its
 * other short senses (肠道 -> intestines, gut; 随机 -> random; 队列 -> cohort). A keyword's words must
 * all match, so one more sense of one word widens little.
 */
export function searchAlternatives(word: string, gloss: string, fromDictionary: boolean): string[] {
  const alternatives = [gloss, ...(CURATED_OTHER_NAMES.get(word) ?? [])];
  if (fromDictionary) {
    alternatives.push(...cedictSenseVariants(word));
    const senses = (loadCedict().get(word) ?? []).filter((sense) => sense.split(' ').length <= MAX_SENSE_WORDS);
    alternatives.push(...senses.slice(0, MAX_DICTIONARY_SENSES));
  }
  for (const phrase of [...alternatives]) alternatives.push(...(GROUP_OF.get(phrase.toLowerCase()) ?? []));
  for (const phrase of [...alternatives]) alternatives.push(...spellingVariants(phrase));
  const seen = new Set<string>();
  const unique = (phrase: string) => {
    const key = phrase.toLowerCase();
    if (!phrase.trim() || seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  const chosen = alternatives.filter(unique).slice(0, MAX_ALTERNATIVES);
  return [...chosen, ...chosen.flatMap(pluralVariants).filter(unique)];
}
