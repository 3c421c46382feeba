import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fitLsaModel, LsaEmbedder, lsaDimensionFor } from '../../packages/ai/src/builtin/lsa-model';
import { CrossLingualTexts } from '../../packages/ai/src/cross-lingual-texts';
import { documentEmbeddingText } from '../../packages/ai/src/embedding-text';
import { draftEnglishDirection, glossInline } from '../../packages/ai/src/offline/chinese-gloss';
import { extractResearchProfileOffline } from '../../packages/ai/src/offline/research-extractor';

/**
 * The DayDayArXiv mode of `pnpm bench:bilingual <file.jsonl>` (bench/bilingual.ts): how well a Chinese
 * text finds English research of its own subject with the built-in model. A bilingual set (one JSON object a line: id,
 * subject, title_en, abstract_en, title_zh, text_zh) is split by subject into an English corpus and
 * held-out queries. The built-in model is fitted on the English corpus, as it is fitted on the stored
 * corpus in production. Each query ranks the whole corpus; precision@k is the share of the top k with
 * the query's subject. Profiles: the Chinese text as is, glossed (replaced, or glosses appended to the
 * Chinese), and the English text of the same item (the ceiling). Search: the Chinese title as is,
 * glossed, and the English title.
 */

export interface BilingualItem {
  id: string;
  subject: string;
  title_en: string;
  abstract_en: string;
  title_zh: string | null;
  text_zh: string;
}

export interface BilingualBenchmarkOptions {
  /** Subjects measured: the most frequent ones with at least corpusPerSubject + queriesPerSubject items. */
  subjects?: number;
  corpusPerSubject?: number;
  queriesPerSubject?: number;
  k?: number;
}

/** A fixed pseudo-random order (by a hash of the id), so every run picks the same items. */
function stableOrder(items: BilingualItem[]): BilingualItem[] {
  const key = (item: BilingualItem) => createHash('sha1').update(item.id).digest('hex');
  return [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * Subjects so broad that most items of the set also belong to them (the set was collected from cs.AI
 * listings; cs.LG is machine learning in general): a query of one of them has no distinct neighbours.
 */
const CATCH_ALL_SUBJECTS = new Set(['cs.AI', 'cs.LG', 'stat.ML']);

function splitBilingualSet(items: BilingualItem[], options: BilingualBenchmarkOptions = {}) {
  const corpusPerSubject = options.corpusPerSubject ?? 80;
  const queriesPerSubject = options.queriesPerSubject ?? 15;
  const bySubject = new Map<string, BilingualItem[]>();
  for (const item of stableOrder(items)) {
    if (CATCH_ALL_SUBJECTS.has(item.subject)) continue;
    const list = bySubject.get(item.subject) ?? [];
    list.push(item);
    bySubject.set(item.subject, list);
  }
  const subjects = [...bySubject.entries()]
    .filter(([, list]) => list.length >= corpusPerSubject + queriesPerSubject && list.some((item) => item.title_zh))
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
    .slice(0, options.subjects ?? 10)
    .map(([subject]) => subject);
  const corpus: BilingualItem[] = [];
  const queries: BilingualItem[] = [];
  for (const subject of subjects) {
    const list = bySubject.get(subject) as BilingualItem[];
    // Queries first from items with a Chinese title, so the search measure has its queries too.
    const withTitle = list.filter((item) => item.title_zh);
    const chosen = withTitle.slice(0, queriesPerSubject);
    const chosenIds = new Set(chosen.map((item) => item.id));
    queries.push(...chosen);
    corpus.push(...list.filter((item) => !chosenIds.has(item.id)).slice(0, corpusPerSubject));
  }
  return { subjects, corpus, queries };
}

function dot(a: number[], b: number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

function precisionAt(
  queryVectors: number[][],
  querySubjects: string[],
  corpusVectors: number[][],
  corpusSubjects: string[],
  k: number,
): number {
  let total = 0;
  queryVectors.forEach((query, q) => {
    const top = corpusVectors
      .map((vector, index) => ({ index, score: dot(query, vector) }))
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, k);
    total += top.filter(({ index }) => corpusSubjects[index] === querySubjects[q]).length / k;
  });
  return total / Math.max(1, queryVectors.length);
}

function readBilingualSet(file: string): BilingualItem[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as BilingualItem);
}

export async function runBilingualBenchmark(
  file: string,
  write: (text: string) => void,
  options: BilingualBenchmarkOptions = {},
): Promise<number> {
  if (!fs.existsSync(file)) {
    write(`bench:bilingual: bilingual set not found: ${file} (see docs/benchmarks.md for where it comes from)\n`);
    return 1;
  }
  const k = options.k ?? 20;
  const { subjects, corpus, queries } = splitBilingualSet(readBilingualSet(file), options);
  write(
    `${file}\n${subjects.length} subjects (${subjects.join(', ')}); English corpus ${corpus.length}, Chinese queries ${queries.length}; precision@${k}\n`,
  );
  write(`machine: ${os.cpus().length} cores, ${os.type()} ${os.release()}, Node ${process.version}\n\n`);

  const corpusTexts = corpus.map((item) => documentEmbeddingText(item.title_en, item.abstract_en));
  let started = Date.now();
  const dimension = lsaDimensionFor(corpus.length);
  const lsa = new LsaEmbedder(await fitLsaModel(corpusTexts, { dimension }));
  const corpusVectors = corpusTexts.map((text) => lsa.embedOne(text));
  const corpusSubjects = corpus.map((item) => item.subject);
  write(
    `built-in tfidf-lsa (${dimension} d) fitted on the English corpus: ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`,
  );

  const line = (name: string, texts: string[], ceiling?: number) => {
    const start = Date.now();
    const value = precisionAt(
      texts.map((text) => lsa.embedOne(text)),
      queries.map((item) => item.subject),
      corpusVectors,
      corpusSubjects,
      k,
    );
    const share = ceiling ? `  ${((100 * value) / ceiling).toFixed(0).padStart(3)} % of the ceiling` : '';
    write(`${name.padEnd(52)} ${value.toFixed(4)}${share}   (${((Date.now() - start) / 1000).toFixed(1)} s)\n`);
    return value;
  };

  write('Profile (Chinese research text vs the English corpus)\n');
  const ceiling = line(
    'English text of the same items (ceiling)',
    queries.map((q) => documentEmbeddingText(q.title_en, q.abstract_en)),
  );
  line(
    'Chinese text, no glossing',
    queries.map((q) => q.text_zh),
    ceiling,
  );
  started = Date.now();
  const glossed = queries.map((q) => glossInline(q.text_zh));
  const glossMs = Date.now() - started;
  const offline = line('Chinese text, offline glossing (glosses replace)', glossed, ceiling);
  line(
    'Chinese text, glosses appended to the Chinese',
    queries.map((q, i) => `${q.text_zh} ${glossed[i]}`),
    ceiling,
  );
  // What a reader without an LLM saves as their profile: the English draft of their Chinese text.
  const draft = line(
    'Chinese text, offline English draft (saved profile)',
    queries.map((q) => draftEnglishDirection(q.text_zh)?.summary ?? ''),
    ceiling,
  );
  write(`(glossing ${queries.length} texts, dictionary load included: ${(glossMs / 1000).toFixed(1)} s)\n\n`);

  const titled = queries.filter((q) => q.title_zh);
  write(`Search (${titled.length} Chinese titles as queries)\n`);
  const titleQueries = (texts: string[]) =>
    precisionAt(
      texts.map((text) => lsa.embedOne(text)),
      titled.map((item) => item.subject),
      corpusVectors,
      corpusSubjects,
      k,
    );
  const titleCeiling = titleQueries(titled.map((q) => documentEmbeddingText(q.title_en, '')));
  const titleLine = (name: string, value: number, withShare = true) =>
    write(
      `${name.padEnd(52)} ${value.toFixed(4)}${withShare ? `  ${((100 * value) / titleCeiling).toFixed(0).padStart(3)} % of the ceiling` : ''}\n`,
    );
  titleLine('English title (ceiling)', titleCeiling, false);
  titleLine('Chinese title, no glossing', titleQueries(titled.map((q) => q.title_zh as string)));
  titleLine('Chinese title, offline glossing', titleQueries(titled.map((q) => glossInline(q.title_zh as string))));
  // The profile a reader without an LLM has is the draft they save, not the glossed text.
  const shareOf = (value: number) => ((100 * value) / ceiling).toFixed(0);
  write(
    `\ntarget: a Chinese profile reaches at least 70 % of the ceiling offline: ${draft / ceiling >= 0.7 ? 'met' : 'NOT met'} (saved draft ${shareOf(draft)} %, glossed text ${shareOf(offline)} %)\n`,
  );
  return 0;
}

/**
 * The default mode of `pnpm bench:bilingual` (bench/bilingual.ts): Chinese researchers' homepages
 * against English papers of 21 fields. A set directory holds JSONL files, one object a line:
 * - `{"kind":"paper",id,field,title,abstract}`: the English corpus;
 * - `{"kind":"profile",id,field,paper,text_zh}`: a Chinese homepage and the paper its author wrote;
 * - `{"kind":"search",id,field,zh,en}`: a Chinese search term and its English.
 * The built-in model is fitted on the corpus (as on the stored corpus in production). Each profile ranks
 * the corpus four ways: (a) the offline draft as the product embeds a confirmed one (its summary beside
 * the glossed research content of the pasted text, CrossLingualTexts.profile(summary, text_zh)),
 * (a') the draft summary alone, (b) the Chinese text as written (glossed, CrossLingualTexts.profile),
 * (c) the English ceiling: the paired paper's text. P@20 = share of the top 20 in the profile's field.
 * Search: recall of the English query's top 20 by the Chinese query's.
 */
interface SetPaper {
  kind: 'paper';
  id: string;
  field: string;
  title: string;
  abstract: string;
}
interface SetProfile {
  kind: 'profile';
  id: string;
  field: string;
  paper: string;
  text_zh: string;
}
interface SetSearch {
  kind: 'search';
  id: string;
  field: string;
  zh: string;
  en: string;
  /** Written after the glossary by someone who had not seen it (bench/bilingual-search.ts reports them apart). */
  heldout?: boolean;
}
export type SetLine = SetPaper | SetProfile | SetSearch;

/** Share of the ceiling the offline draft path must reach overall, and in every field. */
const DRAFT_TARGET_OVERALL = 0.85;
const DRAFT_TARGET_FIELD = 0.7;
const SEARCH_TARGET_RECALL = 0.9;

/** Every line of the set's files (bench/bilingual-set/*.jsonl), file by file in name order. */
export function readSetDirectory(dir: string): SetLine[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) =>
      fs
        .readFileSync(path.join(dir, name), 'utf8')
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line) as SetLine),
    );
}

/** Corpus indices by descending similarity to the query (ties by corpus order). */
function ranking(query: number[], corpusVectors: number[][]): number[] {
  return corpusVectors
    .map((vector, index) => ({ index, score: dot(query, vector) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map(({ index }) => index);
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export async function runBilingualSetBenchmark(dir: string, write: (text: string) => void, k = 20): Promise<number> {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    write(`bench:bilingual: set directory not found: ${dir}\n`);
    return 1;
  }
  const lines = readSetDirectory(dir);
  const papers = lines.filter((line): line is SetPaper => line.kind === 'paper');
  const profiles = lines.filter((line): line is SetProfile => line.kind === 'profile');
  const searches = lines.filter((line): line is SetSearch => line.kind === 'search');
  if (papers.length === 0 || profiles.length === 0) {
    write(`bench:bilingual: no papers or no profiles in ${dir}\n`);
    return 1;
  }
  const fields = [...new Set(profiles.map((profile) => profile.field))].sort();
  write(
    `${dir}\n${fields.length} fields with profiles; corpus ${papers.length} English papers, ${profiles.length} Chinese profiles, ${searches.length} search pairs; P@${k}\n`,
  );
  write(`machine: ${os.cpus().length} cores, ${os.type()} ${os.release()}, Node ${process.version}\n\n`);

  let started = Date.now();
  const corpusTexts = papers.map((paper) => documentEmbeddingText(paper.title, paper.abstract));
  const dimension = lsaDimensionFor(papers.length);
  const lsa = new LsaEmbedder(await fitLsaModel(corpusTexts, { dimension }));
  const corpusVectors = corpusTexts.map((text) => lsa.embedOne(text));
  const paperIndex = new Map(papers.map((paper, index) => [paper.id, index]));
  write(
    `built-in tfidf-lsa (${dimension} d) fitted on the corpus: ${((Date.now() - started) / 1000).toFixed(1)} s\n\n`,
  );

  const texts = new CrossLingualTexts({ multilingual: false });
  started = Date.now();
  const drafts = profiles.map((profile) => {
    const extraction = extractResearchProfileOffline(profile.text_zh);
    return {
      summary: extraction.researchSummaryEn,
      terms: draftEnglishDirection(profile.text_zh)?.terms.length ?? 0,
    };
  });
  const draftMs = Date.now() - started;
  const paths: { name: string; texts: string[] }[] = [
    { name: '(c) English ceiling: the paired paper', texts: [] },
    { name: '(a) offline draft + pasted text (product)', texts: [] },
    { name: "(a') offline draft summary alone", texts: [] },
    { name: '(b) Chinese text as written (glossed)', texts: [] },
  ];
  profiles.forEach((profile, i) => {
    const paired = paperIndex.get(profile.paper);
    const draft = drafts[i] as { summary: string };
    (paths[0] as { texts: string[] }).texts.push(paired === undefined ? '' : (corpusTexts[paired] as string));
    (paths[1] as { texts: string[] }).texts.push(texts.profile(draft.summary, profile.text_zh));
    (paths[2] as { texts: string[] }).texts.push(texts.profile(draft.summary));
    (paths[3] as { texts: string[] }).texts.push(texts.profile(profile.text_zh));
  });

  const results = paths.map(({ name, texts: queryTexts }) => {
    const byField = new Map<string, number[]>();
    let first = 0;
    queryTexts.forEach((text, i) => {
      const profile = profiles[i] as SetProfile;
      const order = ranking(lsa.embedOne(text), corpusVectors);
      const precision =
        order.slice(0, k).filter((index) => (papers[index] as SetPaper).field === profile.field).length / k;
      const list = byField.get(profile.field) ?? [];
      list.push(precision);
      byField.set(profile.field, list);
      if (order[0] === paperIndex.get(profile.paper)) first += 1;
    });
    const fieldMeans = new Map(
      [...byField].map(([field, values]) => [field, values.reduce((a, b) => a + b, 0) / values.length]),
    );
    const all = [...byField.values()].flat();
    return { name, overall: all.reduce((a, b) => a + b, 0) / all.length, fieldMeans, first };
  });
  const [ceiling, product, alone, chinese] = results as [
    (typeof results)[number],
    (typeof results)[number],
    (typeof results)[number],
    (typeof results)[number],
  ];

  const pct = (value: number, of: number) => (of > 0 ? `${((100 * value) / of).toFixed(0)} %` : 'n/a');
  write(`Profiles: P@${k} overall (share of the ceiling), paired paper ranked first\n`);
  for (const result of results) {
    const share = result === ceiling ? '' : ` (${pct(result.overall, ceiling.overall)})`;
    write(
      `${result.name.padEnd(44)} ${result.overall.toFixed(4)}${share.padEnd(8)}  first ${result.first}/${profiles.length}\n`,
    );
  }
  write(`\nPer field: P@${k} (share of the field's ceiling)\n`);
  write(
    `${'field'.padEnd(24)} ${'(c)'.padStart(7)} ${'(a)'.padStart(15)} ${"(a')".padStart(15)} ${'(b)'.padStart(15)}\n`,
  );
  const lowFields: string[] = [];
  for (const field of fields) {
    const c = ceiling.fieldMeans.get(field) ?? 0;
    const cell = (value: number) => `${value.toFixed(3)} ${`(${pct(value, c)})`.padStart(7)}`.padStart(15);
    const a = product.fieldMeans.get(field) ?? 0;
    if (c > 0 && a / c < DRAFT_TARGET_FIELD) lowFields.push(`${field} ${pct(a, c)}`);
    write(
      `${field.padEnd(24)} ${c.toFixed(3).padStart(7)} ${cell(a)} ${cell(alone.fieldMeans.get(field) ?? 0)} ${cell(chinese.fieldMeans.get(field) ?? 0)}\n`,
    );
  }
  const termCounts = drafts.map((draft) => draft.terms);
  write(
    `\nmedian draft terms ${median(termCounts)} (min ${Math.min(...termCounts)}, max ${Math.max(...termCounts)}); drafting ${profiles.length} texts, dictionary load included: ${(draftMs / 1000).toFixed(1)} s\n`,
  );
  const overallShare = ceiling.overall > 0 ? product.overall / ceiling.overall : 0;
  write(
    `target: draft path >= ${DRAFT_TARGET_OVERALL * 100} % of the ceiling overall: ${overallShare >= DRAFT_TARGET_OVERALL ? 'met' : 'NOT met'} (${pct(product.overall, ceiling.overall)})\n`,
  );
  write(
    `target: no field below ${DRAFT_TARGET_FIELD * 100} % of its ceiling: ${lowFields.length === 0 ? 'met' : `NOT met (${lowFields.join(', ')})`}\n`,
  );

  if (searches.length > 0) {
    let recall = 0;
    let fieldEn = 0;
    let fieldZh = 0;
    const bySearchField = new Map<string, number[]>();
    for (const search of searches) {
      const en = ranking(lsa.embedOne(texts.profile(search.en)), corpusVectors).slice(0, k);
      const zh = ranking(lsa.embedOne(texts.profile(search.zh)), corpusVectors).slice(0, k);
      const enSet = new Set(en);
      const value = zh.filter((index) => enSet.has(index)).length / k;
      recall += value;
      const list = bySearchField.get(search.field) ?? [];
      list.push(value);
      bySearchField.set(search.field, list);
      fieldEn += en.filter((index) => (papers[index] as SetPaper).field === search.field).length / k;
      fieldZh += zh.filter((index) => (papers[index] as SetPaper).field === search.field).length / k;
    }
    const n = searches.length;
    write(
      `\nSearch (${n} pairs): recall of the English query's top ${k} by the Chinese query ${(recall / n).toFixed(4)}; P@${k} of the field: English ${(fieldEn / n).toFixed(4)}, Chinese ${(fieldZh / n).toFixed(4)}\n`,
    );
    write(
      `  per field: ${[...bySearchField].map(([field, values]) => `${field} ${(values.reduce((a, b) => a + b, 0) / values.length).toFixed(2)}`).join(', ')}\n`,
    );
    write(
      `target: search recall >= ${SEARCH_TARGET_RECALL}: ${recall / n >= SEARCH_TARGET_RECALL ? 'met' : 'NOT met'}\n`,
    );
  }
  return 0;
}
