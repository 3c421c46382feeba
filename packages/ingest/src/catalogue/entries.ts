import type { ResearchFieldId } from '@radar/shared';
import type { z } from 'zod';
import { type SourceConfig, sourceConfigSchema } from '../pipeline/sources-config';
import { PREPRINT_CATALOGUE_ENTRIES } from './preprint-entries';

/**
 * The built-in source catalogue: what the worker runs when no sources file exists, each entry switched
 * on by the research fields it names (the activation is in ./index.ts). Every entry here needs no key
 * except those named in OPENALEX_KEY_ENTRIES. How each URL, format and ISSN was checked is in
 * config/README.md ("Built-in catalogue", column "how verified").
 *
 * Rules of the content:
 * - arXiv: announcement feeds (kind arxiv-rss), one request per entry and run, categories joined with
 *   "+", so a day costs a handful of requests against arXiv's one request every 3 s.
 * - Crossref: one entry per field with the ISSNs of leading journals (checked against the SCImago 2024
 *   export); one request per ISSN and run at least. Records without an abstract are kept (a title is
 *   the ranking evidence of most humanities journals, whose publishers rarely deposit abstracts), except
 *   in entries with `requireAbstract`, whose journals deposit abstracts for research articles and whose
 *   abstract-less records are mostly corrections, news and editorials.
 * - Journal feeds (rss) name their journal and ISSNs so journal tiers apply.
 * - News feeds (news-rss) of science news services and institutes, Chinese ones included.
 */

type CatalogueInput = z.input<typeof sourceConfigSchema> & { fields: ResearchFieldId[] };

interface Journal {
  title: string;
  issn: string;
}

/** Journals read through Crossref, per catalogue entry name (for the docs and the benchmark). */
export const CATALOGUE_JOURNALS: Record<string, Journal[]> = {};

function crossref(
  name: string,
  fields: ResearchFieldId[],
  journals: [title: string, issn: string][],
  options: { requireAbstract?: boolean } = {},
): CatalogueInput {
  CATALOGUE_JOURNALS[name] = journals.map(([title, issn]) => ({ title, issn }));
  return {
    name,
    kind: 'crossref',
    fields,
    issns: journals.map(([, issn]) => issn),
    ...(options.requireAbstract ? { requireAbstract: true } : {}),
  };
}

function arxivFeed(name: string, fields: ResearchFieldId[], categories: string[]): CatalogueInput {
  return { name, kind: 'arxiv-rss', fields, categories };
}

function natureFeed(
  name: string,
  fields: ResearchFieldId[],
  code: string,
  journal: { name: string; issn: string; eissn?: string },
): CatalogueInput {
  return {
    name,
    kind: 'rss',
    fields,
    url: `https://www.nature.com/${code}.rss`,
    journal: { ...journal, publisher: 'Springer Nature' },
  };
}

function news(
  name: string,
  fields: ResearchFieldId[],
  url: string,
  institute: string,
  homepage: string,
): CatalogueInput {
  return { name, kind: 'news-rss', fields, url, institute, homepage };
}

const NATURAL_SCIENCES: ResearchFieldId[] = [
  'multidisciplinary',
  'physics-astronomy',
  'chemistry',
  'biology',
  'medicine',
  'earth-sciences',
  'environmental-ecology',
  'materials-science',
  'engineering-technology',
  'computer-science',
];

const ENTRIES: CatalogueInput[] = [
  // ---------------------------------------------------------------- arXiv announcement feeds
  arxivFeed('arxiv-cs', ['computer-science'], ['cs']),
  arxivFeed('arxiv-math', ['mathematics'], ['math']),
  arxivFeed('arxiv-stat', ['mathematics', 'computer-science'], ['stat']),
  arxivFeed('arxiv-astro-ph', ['physics-astronomy'], ['astro-ph']),
  arxivFeed('arxiv-cond-mat', ['physics-astronomy', 'materials-science'], ['cond-mat']),
  arxivFeed(
    'arxiv-physics',
    ['physics-astronomy'],
    ['gr-qc', 'hep-ex', 'hep-lat', 'hep-ph', 'hep-th', 'math-ph', 'nlin', 'nucl-ex', 'nucl-th', 'quant-ph'],
  ),
  arxivFeed(
    'arxiv-applied-physics',
    ['physics-astronomy', 'engineering-technology'],
    ['physics.app-ph', 'physics.optics', 'physics.flu-dyn', 'physics.ins-det', 'physics.acc-ph', 'physics.plasm-ph'],
  ),
  arxivFeed('arxiv-chemistry', ['chemistry'], ['physics.chem-ph', 'cond-mat.soft']),
  arxivFeed('arxiv-materials', ['materials-science'], ['cond-mat.mtrl-sci']),
  arxivFeed('arxiv-eess', ['engineering-technology'], ['eess']),
  arxivFeed('arxiv-q-bio', ['biology'], ['q-bio']),
  arxivFeed('arxiv-medicine', ['medicine'], ['physics.med-ph', 'q-bio.TO', 'q-bio.QM']),
  arxivFeed('arxiv-earth', ['earth-sciences', 'environmental-ecology'], ['physics.geo-ph', 'physics.ao-ph']),
  arxivFeed('arxiv-ecology', ['environmental-ecology'], ['q-bio.PE']),
  arxivFeed('arxiv-q-fin', ['economics', 'management'], ['q-fin']),
  arxivFeed('arxiv-econ', ['economics'], ['econ']),
  arxivFeed('arxiv-society', ['sociology', 'education'], ['physics.soc-ph', 'physics.ed-ph', 'cs.CY']),
  arxivFeed('arxiv-history-philosophy', ['history', 'philosophy'], ['physics.hist-ph']),

  // ---------------------------------------------------------------- Crossref by journal ISSN
  crossref(
    'crossref-materials',
    ['materials-science'],
    [
      ['Advanced Materials', '0935-9648'],
      ['Advanced Functional Materials', '1616-301X'],
      ['Acta Materialia', '1359-6454'],
      ['Materials Today', '1369-7021'],
      ['Journal of Materials Chemistry A', '2050-7488'],
      ['Science China Materials', '2095-8226'],
      ['Nano Research', '1998-0124'],
    ],
  ),
  crossref(
    'crossref-biology',
    ['biology'],
    [
      ['Cell', '0092-8674'],
      ['eLife', '2050-084X'],
      ['PLoS Biology', '1544-9173'],
      ['Nucleic Acids Research', '0305-1048'],
      ['Genome Biology', '1474-760X'],
      ['Current Biology', '0960-9822'],
      ['EMBO Journal', '0261-4189'],
      ['Cell Research', '1001-0602'],
      ['Science China Life Sciences', '1674-7305'],
    ],
  ),
  crossref(
    'crossref-engineering',
    ['engineering-technology'],
    [
      ['IEEE Transactions on Industrial Electronics', '0278-0046'],
      ['IEEE Transactions on Automatic Control', '0018-9286'],
      ['IEEE Transactions on Power Systems', '0885-8950'],
      ['Journal of Fluid Mechanics', '0022-1120'],
      ['Applied Energy', '0306-2619'],
      ['Engineering', '2095-8099'],
      ['IEEE/CAA Journal of Automatica Sinica', '2329-9266'],
      ['Nature Electronics', '2520-1131'],
    ],
  ),
  crossref(
    'crossref-management',
    ['management'],
    [
      ['Management Science', '0025-1909'],
      ['Academy of Management Journal', '0001-4273'],
      ['Academy of Management Review', '0363-7425'],
      ['Strategic Management Journal', '0143-2095'],
      ['Administrative Science Quarterly', '0001-8392'],
      ['Organization Science', '1047-7039'],
      ['Journal of Operations Management', '0272-6963'],
      ['Research Policy', '0048-7333'],
      ['Journal of Marketing', '0022-2429'],
      ['Journal of International Business Studies', '0047-2506'],
    ],
  ),
  crossref(
    'crossref-earth',
    ['earth-sciences'],
    [
      ['Geophysical Research Letters', '0094-8276'],
      ['Journal of Geophysical Research: Solid Earth', '2169-9313'],
      ['Journal of Geophysical Research: Atmospheres', '2169-897X'],
      ['Earth and Planetary Science Letters', '0012-821X'],
      ['Geology', '0091-7613'],
      ['Journal of Climate', '0894-8755'],
      ['Science China Earth Sciences', '1674-7313'],
      ['Geoscience Frontiers', '1674-9871'],
    ],
  ),
  crossref(
    'crossref-medicine',
    ['medicine'],
    [
      ['New England Journal of Medicine', '0028-4793'],
      ['JAMA', '0098-7484'],
      ['BMJ', '0959-8146'],
      ['Annals of Internal Medicine', '0003-4819'],
      ['PLoS Medicine', '1549-1277'],
      ['Journal of Clinical Oncology', '0732-183X'],
      ['Circulation', '0009-7322'],
      ['Chinese Medical Journal', '0366-6999'],
      ['Signal Transduction and Targeted Therapy', '2059-3635'],
    ],
  ),
  crossref(
    'crossref-mathematics',
    ['mathematics'],
    [
      ['Annals of Mathematics', '0003-486X'],
      ['Inventiones Mathematicae', '0020-9910'],
      ['Journal of the American Mathematical Society', '0894-0347'],
      ['Acta Mathematica', '0001-5962'],
      ['Duke Mathematical Journal', '0012-7094'],
      ['Acta Mathematica Sinica, English Series', '1439-8516'],
    ],
  ),
  crossref(
    'crossref-education',
    ['education'],
    [
      ['Review of Educational Research', '0034-6543'],
      ['American Educational Research Journal', '0002-8312'],
      ['Educational Researcher', '0013-189X'],
      ['Computers and Education', '0360-1315'],
      ['Journal of Educational Psychology', '0022-0663'],
      ['British Journal of Educational Technology', '0007-1013'],
      ['Higher Education', '0018-1560'],
      ['Teaching and Teacher Education', '0742-051X'],
      ['Sociology of Education', '0038-0407'],
      ['ECNU Review of Education', '2096-5311'],
    ],
  ),
  crossref(
    'crossref-agriculture-forestry',
    ['agricultural-forestry'],
    [
      ['Agricultural and Forest Meteorology', '0168-1923'],
      ['Field Crops Research', '0378-4290'],
      ['Forest Ecology and Management', '0378-1127'],
      ['Nature Food', '2662-1355'],
      ['Nature Plants', '2055-026X'],
      ['Plant Cell', '1040-4651'],
      ['Journal of Agricultural and Food Chemistry', '0021-8561'],
      ['Agricultural Systems', '0308-521X'],
      ['Forestry', '0015-752X'],
      ['Horticulture Research', '2662-6810'],
      ['Crop Journal', '2095-5421'],
      ['Forest Ecosystems', '2197-5620'],
      ['Journal of Integrative Agriculture', '2095-3119'],
    ],
  ),
  crossref(
    'crossref-philosophy',
    ['philosophy'],
    [
      ['Mind', '0026-4423'],
      ['Philosophical Review', '0031-8108'],
      ['Nous', '0029-4624'],
      ['Journal of Philosophy', '0022-362X'],
      ['Philosophy and Phenomenological Research', '0031-8205'],
      ['Philosophical Studies', '0031-8116'],
      ['Synthese', '0039-7857'],
      ['Philosophy of Science', '0031-8248'],
      ['Ethics', '0014-1704'],
      ['Australasian Journal of Philosophy', '0004-8402'],
      ['Philosophy East and West', '0031-8221'],
      ['Journal of Chinese Philosophy', '0301-8121'],
    ],
  ),
  crossref(
    'crossref-chemistry',
    ['chemistry'],
    [
      ['Journal of the American Chemical Society', '0002-7863'],
      ['Angewandte Chemie International Edition', '1433-7851'],
      ['Chemical Science', '2041-6520'],
      ['Chemical Reviews', '0009-2665'],
      ['Science China Chemistry', '1674-7291'],
    ],
  ),
  crossref(
    'crossref-computer-science',
    ['computer-science'],
    [
      ['IEEE Transactions on Pattern Analysis and Machine Intelligence', '0162-8828'],
      ['Journal of the ACM', '0004-5411'],
      ['ACM Computing Surveys', '0360-0300'],
      ['Journal of Machine Learning Research', '1532-4435'],
      ['Science China Information Sciences', '1674-733X'],
      ['Frontiers of Computer Science', '2095-2228'],
    ],
  ),
  crossref(
    'crossref-physics-astronomy',
    ['physics-astronomy'],
    [
      ['Physical Review Letters', '0031-9007'],
      ['Physical Review X', '2160-3308'],
      ['Astrophysical Journal', '0004-637X'],
      ['Monthly Notices of the Royal Astronomical Society', '0035-8711'],
      ['Astronomy and Astrophysics', '0004-6361'],
      ['Chinese Physics Letters', '0256-307X'],
      ['Light: Science and Applications', '2047-7538'],
    ],
  ),
  crossref(
    'crossref-environment-ecology',
    ['environmental-ecology'],
    [
      ['Ecology Letters', '1461-023X'],
      ['Environmental Science and Technology', '0013-936X'],
      ['Global Change Biology', '1354-1013'],
      ['Journal of Ecology', '0022-0477'],
      ['Ecology', '0012-9658'],
      ['Conservation Biology', '0888-8892'],
      ['Water Research', '0043-1354'],
      ['Nature Climate Change', '1758-678X'],
      ['Nature Sustainability', '2398-9629'],
      ['PeerJ', '2167-8359'],
      ['Environmental Science and Ecotechnology', '2666-4984'],
    ],
  ),
  crossref(
    'crossref-multidisciplinary',
    ['multidisciplinary'],
    [
      ['Proceedings of the National Academy of Sciences', '0027-8424'],
      ['Nature Communications', '2041-1723'],
      ['Science Advances', '2375-2548'],
      ['PLoS ONE', '1932-6203'],
      ['National Science Review', '2095-5138'],
      ['Science Bulletin', '2095-9273'],
      ['Fundamental Research', '2096-9457'],
    ],
    { requireAbstract: true },
  ),
  crossref(
    'crossref-psychology',
    ['psychology'],
    [
      ['Psychological Science', '0956-7976'],
      ['Psychological Bulletin', '0033-2909'],
      ['Journal of Personality and Social Psychology', '0022-3514'],
      ['Journal of Experimental Psychology: General', '0096-3445'],
      ['Child Development', '0009-3920'],
      ['Cognition', '0010-0277'],
      ['Trends in Cognitive Sciences', '1364-6613'],
    ],
  ),
  crossref(
    'crossref-economics',
    ['economics'],
    [
      ['American Economic Review', '0002-8282'],
      ['Quarterly Journal of Economics', '0033-5533'],
      ['Econometrica', '0012-9682'],
      ['Journal of Political Economy', '0022-3808'],
      ['Review of Economic Studies', '0034-6527'],
      ['Journal of Finance', '0022-1082'],
      ['Review of Financial Studies', '0893-9454'],
      ['Economic Journal', '0013-0133'],
      ['Journal of Development Economics', '0304-3878'],
      ['China Economic Review', '1043-951X'],
    ],
  ),
  crossref(
    'crossref-sociology',
    ['sociology'],
    [
      ['American Sociological Review', '0003-1224'],
      ['American Journal of Sociology', '0002-9602'],
      ['Annual Review of Sociology', '0360-0572'],
      ['Social Forces', '0037-7732'],
      ['European Sociological Review', '0266-7215'],
      ['Sociological Methods and Research', '0049-1241'],
      ['Social Problems', '0037-7791'],
      ['Chinese Journal of Sociology', '2057-150X'],
    ],
  ),
  crossref(
    'crossref-arts',
    ['arts'],
    [
      ['Art Bulletin', '0004-3079'],
      ['Journal of Aesthetics and Art Criticism', '0021-8529'],
      ['British Journal of Aesthetics', '0007-0904'],
      ['Leonardo', '0024-094X'],
      ['Design Studies', '0142-694X'],
      ['Music Perception', '0730-7829'],
      ['Music Theory Spectrum', '0195-6167'],
      ['Psychology of Aesthetics, Creativity, and the Arts', '1931-3896'],
      ['Empirical Studies of the Arts', '0276-2374'],
      ['Art History', '0141-6790'],
      ['Studies in Art Education', '0039-3541'],
      ['Visual Studies', '1472-586X'],
    ],
  ),
  crossref(
    'crossref-history',
    ['history'],
    [
      ['American Historical Review', '0002-8762'],
      ['Past and Present', '0031-2746'],
      ['Journal of Modern History', '0022-2801'],
      ['Historical Journal', '0018-246X'],
      ['Journal of Global History', '1740-0228'],
      ['Comparative Studies in Society and History', '0010-4175'],
      ['Journal of Economic History', '0022-0507'],
      ['Isis', '0021-1753'],
      ['Journal of Asian Studies', '0021-9118'],
      ['History and Theory', '0018-2656'],
      ['Environmental History', '1084-5453'],
    ],
  ),
  crossref(
    'crossref-literature',
    ['literature'],
    [
      ['PMLA', '0030-8129'],
      ['New Literary History', '0028-6087'],
      ['Comparative Literature', '0010-4124'],
      ['Critical Inquiry', '0093-1896'],
      ['Poetics Today', '0333-5372'],
      ['Representations', '0734-6018'],
      ['Narrative', '1063-3685'],
      ['ELH (English Literary History)', '0013-8304'],
      ['Modern Philology', '0026-8232'],
      ['Comparative Literature Studies', '0010-4132'],
      ['Journal of Chinese Literature and Culture', '2329-0048'],
      ['Frontiers of Literary Studies in China', '1673-7318'],
    ],
  ),

  // ---------------------------------------------------------------- journals' own feeds
  natureFeed('rss-nature', ['multidisciplinary', ...NATURAL_SCIENCES.slice(1, 7)], 'nature', {
    name: 'Nature',
    issn: '0028-0836',
    eissn: '1476-4687',
  }),
  natureFeed('rss-nature-materials', ['materials-science'], 'nmat', {
    name: 'Nature Materials',
    issn: '1476-1122',
    eissn: '1476-4660',
  }),
  natureFeed('rss-nature-chemistry', ['chemistry'], 'nchem', {
    name: 'Nature Chemistry',
    issn: '1755-4330',
    eissn: '1755-4349',
  }),
  natureFeed('rss-nature-physics', ['physics-astronomy'], 'nphys', {
    name: 'Nature Physics',
    issn: '1745-2473',
  }),
  natureFeed('rss-nature-geoscience', ['earth-sciences'], 'ngeo', {
    name: 'Nature Geoscience',
    issn: '1752-0894',
    eissn: '1752-0908',
  }),
  natureFeed('rss-nature-medicine', ['medicine'], 'nm', {
    name: 'Nature Medicine',
    issn: '1078-8956',
    eissn: '1546-170X',
  }),
  natureFeed('rss-nature-ecology-evolution', ['environmental-ecology', 'biology'], 'natecolevol', {
    name: 'Nature Ecology & Evolution',
    issn: '2397-334X',
  }),
  natureFeed('rss-nature-human-behaviour', ['psychology', 'sociology'], 'nathumbehav', {
    name: 'Nature Human Behaviour',
    issn: '2397-3374',
  }),
  {
    name: 'rss-science',
    kind: 'rss',
    fields: ['multidisciplinary', ...NATURAL_SCIENCES.slice(1, 7)],
    url: 'https://www.science.org/action/showFeed?type=etoc&feed=rss&jc=science',
    journal: { name: 'Science', issn: '0036-8075', eissn: '1095-9203', publisher: 'AAAS' },
  },
  {
    name: 'rss-plos-biology',
    kind: 'rss',
    fields: ['biology'],
    url: 'https://journals.plos.org/plosbiology/feed/atom',
    journal: { name: 'PLoS Biology', issn: '1544-9173', eissn: '1545-7885', publisher: 'Public Library of Science' },
  },

  // ---------------------------------------------------------------- news services and institutes
  news(
    'news-sciencedaily',
    NATURAL_SCIENCES,
    'https://www.sciencedaily.com/rss/all.xml',
    'ScienceDaily',
    'https://www.sciencedaily.com',
  ),
  news(
    'news-sciencedaily-technology',
    ['engineering-technology', 'computer-science', 'physics-astronomy'],
    'https://www.sciencedaily.com/rss/top/technology.xml',
    'ScienceDaily',
    'https://www.sciencedaily.com',
  ),
  news(
    'news-sciencedaily-health',
    ['medicine', 'psychology'],
    'https://www.sciencedaily.com/rss/health_medicine.xml',
    'ScienceDaily',
    'https://www.sciencedaily.com',
  ),
  news(
    'news-physorg',
    ['physics-astronomy', 'chemistry', 'materials-science', 'earth-sciences', 'biology', 'multidisciplinary'],
    'https://phys.org/rss-feed/',
    'Phys.org',
    'https://phys.org',
  ),
  news(
    'news-physorg-earth',
    ['earth-sciences', 'environmental-ecology', 'agricultural-forestry'],
    'https://phys.org/rss-feed/earth-news/earth-sciences/',
    'Phys.org',
    'https://phys.org',
  ),
  news(
    'news-physorg-environment',
    ['environmental-ecology', 'agricultural-forestry'],
    'https://phys.org/rss-feed/earth-news/environment/',
    'Phys.org',
    'https://phys.org',
  ),
  news(
    'news-eurekalert-technology',
    ['engineering-technology', 'computer-science', 'materials-science'],
    'https://www.eurekalert.org/rss/technology_engineering.xml',
    'EurekAlert! (AAAS)',
    'https://www.eurekalert.org',
  ),
  news(
    'news-eurekalert-health',
    ['medicine', 'biology'],
    'https://www.eurekalert.org/rss/medicine_health.xml',
    'EurekAlert! (AAAS)',
    'https://www.eurekalert.org',
  ),
  news(
    'news-quanta',
    ['mathematics', 'physics-astronomy', 'computer-science', 'biology'],
    'https://www.quantamagazine.org/feed/',
    'Quanta Magazine',
    'https://www.quantamagazine.org',
  ),
  news(
    'news-the-conversation',
    [
      'education',
      'sociology',
      'economics',
      'management',
      'psychology',
      'history',
      'philosophy',
      'arts',
      'literature',
      'multidisciplinary',
    ],
    'https://theconversation.com/global/articles.atom',
    'The Conversation',
    'https://theconversation.com',
  ),
  news(
    'news-sciencenet',
    ['multidisciplinary', ...NATURAL_SCIENCES.slice(1), 'education', 'agricultural-forestry'],
    'https://www.sciencenet.cn/xml/news.aspx?di=0',
    '科学网',
    'https://news.sciencenet.cn',
  ),
  news(
    'news-sciencenet-math-physics',
    ['mathematics', 'physics-astronomy'],
    'https://www.sciencenet.cn/xml/paper.aspx?di=7',
    '科学网',
    'https://news.sciencenet.cn',
  ),
  news(
    'news-cas-research',
    ['multidisciplinary', ...NATURAL_SCIENCES.slice(1), 'agricultural-forestry'],
    'https://www.cas.cn/rss1/rss_kyjz/rss.xml',
    '中国科学院',
    'https://www.cas.cn',
  ),

  // ---------------------------------------------------------------- OpenAlex (only with OPENALEX_API_KEY)
  ...(
    [
      ['openalex-materials', ['materials-science'], 25],
      ['openalex-biology', ['biology'], 13],
      ['openalex-engineering', ['engineering-technology'], 22],
      ['openalex-management', ['management'], 14],
      ['openalex-earth', ['earth-sciences'], 19],
      ['openalex-medicine', ['medicine'], 27],
      ['openalex-mathematics', ['mathematics'], 26],
      ['openalex-social-sciences', ['education', 'sociology'], 33],
      ['openalex-agriculture', ['agricultural-forestry'], 11],
      ['openalex-humanities', ['philosophy', 'history', 'literature', 'arts'], 12],
      ['openalex-chemistry', ['chemistry'], 16],
      ['openalex-computer-science', ['computer-science'], 17],
      ['openalex-physics-astronomy', ['physics-astronomy'], 31],
      ['openalex-environment', ['environmental-ecology'], 23],
      ['openalex-psychology', ['psychology'], 32],
      ['openalex-economics', ['economics'], 20],
    ] as [string, ResearchFieldId[], number][]
  ).map(
    ([name, fields, openAlexField]): CatalogueInput => ({
      name,
      kind: 'openalex',
      fields,
      // OpenAlex's topic taxonomy: the work's primary topic lies in this field (26 fields in all).
      filter: `primary_topic.field.id:fields/${openAlexField},type:article`,
      lookbackDays: 3,
      requires: ['openalex-key'],
    }),
  ),
];

/**
 * Entries that run only when OPENALEX_API_KEY is set: OpenAlex requires a key since February 2026 and
 * allows about a hundred list calls a day without one.
 */
export const OPENALEX_KEY_ENTRIES: readonly string[] = ENTRIES.filter((entry) =>
  entry.requires?.includes('openalex-key'),
).map((entry) => entry.name);

/**
 * Every entry, parsed with the sources schema (defaults filled in); a wrong entry fails at load. The
 * bioRxiv and medRxiv entries (preprint-entries.ts) are part of the catalogue.
 */
export const CATALOGUE_ENTRIES: SourceConfig[] = [
  ...ENTRIES.map((entry) => {
    const parsed = sourceConfigSchema.safeParse(entry);
    if (!parsed.success) throw new Error(`catalogue entry "${entry.name}": ${parsed.error.message}`);
    return parsed.data;
  }),
  ...PREPRINT_CATALOGUE_ENTRIES,
];
