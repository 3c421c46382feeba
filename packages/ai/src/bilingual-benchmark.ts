import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { fitLsaModel, LsaEmbedder, lsaDimensionFor } from './builtin/lsa-model';
import { documentEmbeddingText } from './embedding-text';
import { draftEnglishDirection, glossInline } from './offline/chinese-gloss';

/**
 * The body of `pnpm bench:bilingual` (bench/bilingual.ts): how well a Chinese text finds English
 * research of its own subject with the built-in model. A bilingual set (one JSON object a line: id,
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
