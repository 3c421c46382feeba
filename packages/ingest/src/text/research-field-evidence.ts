import type { ResearchFieldId } from '@radar/shared';

/**
 * Research fields (ids of the 21) from what a source says about an item: arXiv categories, the ASJC
 * subject areas and categories of Scopus/SCImago (journals) and OpenAlex (its 26 "fields" are the ASJC
 * subject areas, its subfields the ASJC categories, with the same numeric codes). Unknown values give
 * no field: an item without evidence stays unknown and is never demoted by ranking.
 */

type Fields = readonly ResearchFieldId[];

const CS: Fields = ['computer-science'];
const MATH: Fields = ['mathematics'];
const PHYSICS: Fields = ['physics-astronomy'];

/** arXiv archives (current and legacy) to fields; a category listed in ARXIV_CATEGORIES overrides its archive. */
const ARXIV_ARCHIVES: Record<string, Fields> = {
  cs: CS,
  'cmp-lg': CS,
  math: MATH,
  'alg-geom': MATH,
  'dg-ga': MATH,
  'funct-an': MATH,
  'q-alg': MATH,
  stat: MATH,
  'bayes-an': MATH,
  'math-ph': ['mathematics', 'physics-astronomy'],
  physics: PHYSICS,
  'astro-ph': PHYSICS,
  'cond-mat': PHYSICS,
  'gr-qc': PHYSICS,
  'hep-ex': PHYSICS,
  'hep-lat': PHYSICS,
  'hep-ph': PHYSICS,
  'hep-th': PHYSICS,
  'nucl-ex': PHYSICS,
  'nucl-th': PHYSICS,
  'quant-ph': PHYSICS,
  nlin: PHYSICS,
  'chao-dyn': PHYSICS,
  'solv-int': PHYSICS,
  'patt-sol': PHYSICS,
  'adap-org': PHYSICS,
  'acc-phys': PHYSICS,
  'atom-ph': PHYSICS,
  'plasm-ph': PHYSICS,
  'supr-con': PHYSICS,
  'mtrl-th': ['physics-astronomy', 'materials-science'],
  'chem-ph': ['physics-astronomy', 'chemistry'],
  'ao-sci': ['physics-astronomy', 'earth-sciences'],
  'q-bio': ['biology'],
  'q-fin': ['economics'],
  econ: ['economics'],
  eess: ['engineering-technology'],
};

/** Categories whose subject reaches beyond their archive's field. */
const ARXIV_CATEGORIES: Record<string, Fields> = {
  'cs.CY': ['computer-science', 'sociology'],
  'cs.GT': ['computer-science', 'economics'],
  'cs.CE': ['computer-science', 'engineering-technology'],
  'cs.AR': ['computer-science', 'engineering-technology'],
  'cs.RO': ['computer-science', 'engineering-technology'],
  'cs.SY': ['engineering-technology', 'computer-science'],
  'cs.IT': ['computer-science', 'mathematics'],
  'cs.NA': ['mathematics', 'computer-science'],
  'math.IT': ['mathematics', 'computer-science'],
  'math.NA': ['mathematics', 'computer-science'],
  'math.MP': ['mathematics', 'physics-astronomy'],
  'cond-mat.mtrl-sci': ['physics-astronomy', 'materials-science'],
  'cond-mat.soft': ['physics-astronomy', 'materials-science'],
  'physics.chem-ph': ['physics-astronomy', 'chemistry'],
  'physics.bio-ph': ['physics-astronomy', 'biology'],
  'physics.med-ph': ['physics-astronomy', 'medicine'],
  'physics.ed-ph': ['physics-astronomy', 'education'],
  'physics.hist-ph': ['physics-astronomy', 'history', 'philosophy'],
  'physics.soc-ph': ['physics-astronomy', 'sociology'],
  'physics.geo-ph': ['physics-astronomy', 'earth-sciences'],
  'physics.ao-ph': ['physics-astronomy', 'earth-sciences'],
  'physics.app-ph': ['physics-astronomy', 'engineering-technology'],
  'q-bio.NC': ['biology', 'psychology'],
  'q-bio.PE': ['biology', 'environmental-ecology'],
  'q-bio.TO': ['biology', 'medicine'],
  'q-fin.MF': ['economics', 'mathematics'],
  'eess.AS': ['engineering-technology', 'computer-science'],
  'eess.IV': ['engineering-technology', 'computer-science'],
};

/** arXiv category syntax: an archive, optionally ".SUBJECT" ("cs.LG", "hep-th", "cond-mat.mtrl-sci"). */
const ARXIV_CATEGORY = /^([a-z][a-z-]*)(?:\.([A-Za-z][A-Za-z-]*))?$/;

/** The fields of arXiv categories ("cs.LG", "stat.ML", "hep-th"); anything that is not one is ignored. */
export function arxivFields(categories: readonly string[]): ResearchFieldId[] {
  const fields = new Set<ResearchFieldId>();
  for (const raw of categories) {
    const category = raw.trim();
    const match = ARXIV_CATEGORY.exec(category);
    if (!match?.[1]) continue;
    const found = ARXIV_CATEGORIES[category] ?? ARXIV_ARCHIVES[match[1]];
    for (const field of found ?? []) fields.add(field);
  }
  return [...fields];
}

/** ASJC subject areas (the first two digits of a code, OpenAlex "fields" 11-36) to research fields. */
const ASJC_AREAS: Record<number, Fields> = {
  10: ['multidisciplinary'],
  11: ['agricultural-forestry', 'biology'],
  12: ['arts', 'history', 'literature', 'philosophy'],
  13: ['biology'],
  14: ['management'],
  15: ['chemistry', 'engineering-technology'],
  16: ['chemistry'],
  17: ['computer-science'],
  18: ['management'],
  19: ['earth-sciences'],
  20: ['economics'],
  21: ['engineering-technology'],
  22: ['engineering-technology'],
  23: ['environmental-ecology'],
  24: ['biology', 'medicine'],
  25: ['materials-science'],
  26: ['mathematics'],
  27: ['medicine'],
  28: ['biology', 'medicine'],
  29: ['medicine'],
  30: ['medicine'],
  31: ['physics-astronomy'],
  32: ['psychology'],
  33: ['sociology'],
  34: ['agricultural-forestry'],
  35: ['medicine'],
  36: ['medicine'],
};

/** The English names of the ASJC subject areas (SCImago "Areas", OpenAlex field display names). */
const ASJC_AREA_NAMES: Record<string, number> = {
  multidisciplinary: 10,
  'agricultural and biological sciences': 11,
  'arts and humanities': 12,
  'biochemistry, genetics and molecular biology': 13,
  'business, management and accounting': 14,
  'chemical engineering': 15,
  chemistry: 16,
  'computer science': 17,
  'decision sciences': 18,
  'earth and planetary sciences': 19,
  'economics, econometrics and finance': 20,
  energy: 21,
  engineering: 22,
  'environmental science': 23,
  'immunology and microbiology': 24,
  'materials science': 25,
  mathematics: 26,
  medicine: 27,
  neuroscience: 28,
  nursing: 29,
  'pharmacology, toxicology and pharmaceutics': 30,
  'physics and astronomy': 31,
  psychology: 32,
  'social sciences': 33,
  veterinary: 34,
  dentistry: 35,
  'health professions': 36,
};

/**
 * ASJC categories that narrow a broad area: the humanities and social sciences span several of our
 * fields, so their category (SCImago "Categories", OpenAlex subfield) says which.
 */
const ASJC_CATEGORIES: Record<number, { names: string[]; fields: Fields }> = {
  1202: { names: ['history'], fields: ['history'] },
  1204: { names: ['archeology (arts and humanities)'], fields: ['history'] },
  1205: { names: ['classics'], fields: ['history', 'literature'] },
  1206: { names: ['conservation'], fields: ['arts'] },
  1207: { names: ['history and philosophy of science'], fields: ['history', 'philosophy'] },
  1203: { names: ['language and linguistics'], fields: ['literature'] },
  1208: { names: ['literature and literary theory'], fields: ['literature'] },
  1209: { names: ['museology'], fields: ['arts', 'history'] },
  1210: { names: ['music'], fields: ['arts'] },
  1211: { names: ['philosophy'], fields: ['philosophy'] },
  1212: { names: ['religious studies'], fields: ['philosophy'] },
  1213: { names: ['visual arts and performing arts'], fields: ['arts'] },
  3302: { names: ['archeology'], fields: ['history'] },
  3304: { names: ['education'], fields: ['education'] },
  3310: { names: ['linguistics and language'], fields: ['literature'] },
  1105: { names: ['ecology, evolution, behavior and systematics'], fields: ['biology', 'environmental-ecology'] },
  2805: { names: ['cognitive neuroscience'], fields: ['biology', 'psychology'] },
};

const CATEGORY_BY_NAME = new Map<string, number>(
  Object.entries(ASJC_CATEGORIES).flatMap(([code, entry]) => entry.names.map((name) => [name, Number(code)])),
);

const normaliseName = (text: string) =>
  text
    .toLowerCase()
    .replace(/&amp;/g, '&')
    .replace(/\s*&\s*/g, ' and ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Fields of ASJC codes: the areas' fields, except that an area with at least one narrowing category
 * among the codes takes that category's fields instead of its broad default (a history journal is
 * history, not all of the humanities).
 */
function fieldsOfAsjc(areas: readonly number[], categories: readonly number[]): ResearchFieldId[] {
  const fields = new Set<ResearchFieldId>();
  const narrowed = new Set<number>();
  for (const category of categories) {
    const entry = ASJC_CATEGORIES[category];
    if (!entry) continue;
    narrowed.add(Math.floor(category / 100));
    for (const field of entry.fields) fields.add(field);
  }
  for (const area of areas) {
    if (narrowed.has(area)) continue;
    for (const field of ASJC_AREAS[area] ?? []) fields.add(field);
  }
  return [...fields];
}

/**
 * A journal's fields from a SCImago export row: "Areas" ("Biochemistry, Genetics and Molecular Biology;
 * Medicine") and "Categories" ("Endocrinology (Q1); History (Q2)"); either may be empty.
 */
export function scimagoFields(areasText: string, categoriesText: string): ResearchFieldId[] {
  const split = (text: string) =>
    text
      .split(';')
      .map((part) => normaliseName(part.replace(/\((?:q[1-4]|[0-9-]+)\)\s*$/i, '')))
      .filter(Boolean);
  const areas = split(areasText).flatMap((name) => ASJC_AREA_NAMES[name] ?? []);
  const categories = split(categoriesText).flatMap((name) => CATEGORY_BY_NAME.get(name) ?? []);
  // Categories alone (an export without "Areas") still give their areas.
  return fieldsOfAsjc([...areas, ...categories.map((code) => Math.floor(code / 100))], categories);
}

/** The numeric tail of an OpenAlex id ("https://openalex.org/fields/17" -> 17). */
const openAlexCode = (id: unknown): number | undefined => {
  const match = typeof id === 'string' ? /(\d+)\s*$/.exec(id) : null;
  return match?.[1] ? Number(match[1]) : undefined;
};

/**
 * The fields of an OpenAlex work's primary topic: its field (an ASJC area) narrowed by its subfield
 * (an ASJC category), by id, else by display name.
 */
export function openAlexTopicFields(topic: unknown): ResearchFieldId[] {
  if (!topic || typeof topic !== 'object') return [];
  const { field, subfield } = topic as {
    field?: { id?: unknown; display_name?: unknown };
    subfield?: { id?: unknown };
  };
  const area =
    openAlexCode(field?.id) ??
    (typeof field?.display_name === 'string' ? ASJC_AREA_NAMES[normaliseName(field.display_name)] : undefined);
  if (area === undefined) return [];
  const category = openAlexCode(subfield?.id);
  return fieldsOfAsjc([area], category !== undefined && Math.floor(category / 100) === area ? [category] : []);
}

/** Distinct fields of several pieces of evidence, in first-seen order. */
export function mergeFields(...lists: (readonly string[] | undefined)[]): ResearchFieldId[] {
  const fields = new Set<string>();
  for (const list of lists) for (const field of list ?? []) fields.add(field);
  return [...fields] as ResearchFieldId[];
}
