/**
 * `pnpm bench:fields [dev-set.csv]`: the research-field rule of recommendation ranking (field-rule.ts in
 * packages/ai) measured as the product applies it: the 200 candidates nearest to the profile (the pool,
 * rerankPoolSize(20)) reordered with items outside every field of the reader demoted, precision@20 of the
 * first 20, with the built-in model (tf-idf + LSA) fitted on each corpus.
 * - the labelled dev set (<shared fixtures>/eval/arxiv_cs_4class_balanced_800.csv): each paper in turn is
 *   the profile, relevant means the same arXiv category; item fields from the category (arxivFields);
 * - the demo corpus (packages/ingest/src/demo): each demo paper in turn, relevant means the same field
 *   (13 others per field, so precision@20 is at most 0.65);
 * for readers who ticked the correct fields, the correct ones plus one wrong field, and only a wrong one
 * (the worst case: the rule demotes the reader's own topic). Factor 1 is the ranking without the rule;
 * "partition" puts every in-field or unknown item before every outside one.
 * Then the STEM case of issue 20 (STEM_CASE_CORPUS): a gut stem-cell / IBD biologist's summary against
 * education papers about STEM, medicine papers on IBD and plant "stem" papers, the model fitted on the
 * demo corpus plus the case. Record results in docs/benchmarks.md.
 */
import os from 'node:os';
import path from 'node:path';
import { fitLsaModel, LsaEmbedder, lsaDimensionFor } from '../packages/ai/src/builtin/lsa-model';
import { STEM_CASE_CORPUS, STEM_CASE_READER } from '../packages/ai/src/testing/field-rule-corpus';
import { readLabelledCsv } from '../packages/ai/src/testing/labelled-set';
import { sharedFixturesDir } from '../packages/db/src/testing/fixtures';
import { generateDemoCorpus } from '../packages/ingest/src/demo/demo-corpus';
import { arxivFields } from '../packages/ingest/src/text/research-field-evidence';
import { fieldOrderScore, fieldStanding, OUT_OF_FIELD_FACTOR } from '../packages/recommend/src/field-rule';
import { RESEARCH_FIELD_IDS } from '../packages/shared/src/research-fields';

const POOL = 200;
const SHOWN = 20;
type Variant = { name: string; factor: number | 'partition' };
const VARIANTS: Variant[] = [
  { name: 'no rule (factor 1)', factor: 1 },
  { name: 'factor 0.75', factor: 0.75 },
  { name: `factor 0.5${OUT_OF_FIELD_FACTOR === 0.5 ? ' (default)' : ''}`, factor: 0.5 },
  { name: 'factor 0.35', factor: 0.35 },
  { name: 'factor 0.25', factor: 0.25 },
  { name: 'partition', factor: 'partition' },
];

interface Item {
  label: string;
  fields: string[];
  vector: Float64Array;
}

const dot = (a: Float64Array, b: Float64Array) => {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
};

const normalised = (vector: number[]) => {
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)) || 1;
  return Float64Array.from(vector, (x) => x / norm);
};

const orderScore = (similarity: number, reader: string[], item: string[], variant: Variant) => {
  const standing = fieldStanding(reader, item);
  if (variant.factor === 'partition') return standing === 'outside' ? similarity - 4 : similarity;
  return fieldOrderScore(similarity, standing, variant.factor);
};

/** Mean precision@20 over every item as the query, per variant, for readers given by `readerOf`. */
function precisionByVariant(items: Item[], readerOf: (item: Item) => string[]): number[] {
  const totals = VARIANTS.map(() => 0);
  for (const [q, query] of items.entries()) {
    const reader = readerOf(query);
    const pool = items
      .map((item, i) => ({ item, i, similarity: dot(query.vector, item.vector) }))
      .filter((entry) => entry.i !== q)
      .sort((a, b) => b.similarity - a.similarity || a.i - b.i)
      .slice(0, POOL);
    for (const [v, variant] of VARIANTS.entries()) {
      const shown = pool
        .map((entry) => ({ ...entry, rank: orderScore(entry.similarity, reader, entry.item.fields, variant) }))
        .sort((a, b) => b.rank - a.rank || a.i - b.i)
        .slice(0, SHOWN);
      totals[v] = (totals[v] as number) + shown.filter((entry) => entry.item.label === query.label).length / SHOWN;
    }
  }
  return totals.map((total) => total / items.length);
}

async function embedAll(texts: string[]): Promise<Float64Array[]> {
  const lsa = new LsaEmbedder(await fitLsaModel(texts, { dimension: lsaDimensionFor(texts.length) }));
  return texts.map((text) => normalised(lsa.embedOne(text)));
}

function report(title: string, items: Item[], wrongOf: (item: Item) => string) {
  const rows = [
    { name: 'correct fields', readerOf: (item: Item) => item.fields },
    { name: 'correct + one wrong field', readerOf: (item: Item) => [...item.fields, wrongOf(item)] },
    { name: 'only a wrong field (worst case)', readerOf: (item: Item) => [wrongOf(item)] },
  ];
  process.stdout.write(`\n${title}\n${'reader'.padEnd(34)} ${VARIANTS.map((v) => v.name.padStart(20)).join('')}\n`);
  for (const row of rows) {
    const values = precisionByVariant(items, row.readerOf);
    process.stdout.write(`${row.name.padEnd(34)} ${values.map((v) => v.toFixed(4).padStart(20)).join('')}\n`);
  }
}

const started = Date.now();
process.stdout.write(`machine: ${os.cpus().length} cores, Node ${process.version}; pool ${POOL}, precision@${SHOWN}\n`);

const stemOnly = process.argv.includes('--stem-only');
// The labelled dev set.
if (!stemOnly) {
  const devFile = path.resolve(
    process.argv.slice(2).find((arg) => !arg.startsWith('--')) ??
      path.join(sharedFixturesDir(), 'eval/arxiv_cs_4class_balanced_800.csv'),
  );
  const documents = await readLabelledCsv(devFile);
  const devVectors = await embedAll(documents.map((d) => d.text));
  const devItems: Item[] = documents.map((d, i) => ({
    label: d.label,
    fields: arxivFields([d.label]),
    vector: devVectors[i] as Float64Array,
  }));
  const fieldCounts = new Map<string, number>();
  for (const item of devItems)
    for (const field of item.fields) fieldCounts.set(field, (fieldCounts.get(field) ?? 0) + 1);
  const byFrequency = [...fieldCounts].sort((a, b) => b[1] - a[1]).map(([field]) => field);
  process.stdout.write(
    `dev set ${path.basename(devFile)}: ${devItems.length} papers; fields ${[...fieldCounts].map(([f, n]) => `${f} ${n}`).join(', ')}\n`,
  );
  // The wrong field that matters most: the corpus's most common field the reader does not have.
  report(
    'dev set (wrong field: the most common other field of the corpus)',
    devItems,
    (item) => byFrequency.find((field) => !item.fields.includes(field)) as string,
  );
}

// The demo corpus.
const demo = generateDemoCorpus(new Date('2026-11-26T00:00:00Z'));
const demoVectors = await embedAll(demo.papers.map((paper) => `${paper.title}. ${paper.abstract}`));
const demoItems: Item[] = demo.papers.map((paper, i) => ({
  label: paper.fields?.[0] ?? '',
  fields: paper.fields ?? [],
  vector: demoVectors[i] as Float64Array,
}));
if (!stemOnly)
  report(`demo corpus: ${demoItems.length} papers, 21 fields (wrong field: the next field id)`, demoItems, (item) => {
    const index = RESEARCH_FIELD_IDS.indexOf(item.label as (typeof RESEARCH_FIELD_IDS)[number]);
    return RESEARCH_FIELD_IDS[(index + 1) % RESEARCH_FIELD_IDS.length] as string;
  });

// The STEM case.
const caseTexts = STEM_CASE_CORPUS.map((doc) => `${doc.title}. ${doc.abstract}`);
const fitted = new LsaEmbedder(
  await fitLsaModel([...demo.papers.map((paper) => `${paper.title}. ${paper.abstract}`), ...caseTexts], {
    dimension: lsaDimensionFor(demo.papers.length + caseTexts.length),
  }),
);
const profile = normalised(fitted.embedOne(STEM_CASE_READER.summary));
const scored = STEM_CASE_CORPUS.map((doc, i) => ({
  doc,
  similarity: dot(profile, normalised(fitted.embedOne(caseTexts[i] as string))),
}));
process.stdout.write(
  `\nSTEM case: ${STEM_CASE_CORPUS.length} papers, reader fields ${STEM_CASE_READER.fields.join(' + ')}; top 12\n`,
);
const positions = (ranked: typeof scored, field: string) =>
  ranked.flatMap((entry, i) =>
    entry.doc.fields.includes(field) ? [`${i + 1}:${(entry.similarity * 100).toFixed(1)}`] : [],
  );
for (const variant of [VARIANTS[0], VARIANTS[2], VARIANTS[5]] as Variant[]) {
  const ranked = scored
    .map((entry) => ({
      ...entry,
      rank: orderScore(entry.similarity, STEM_CASE_READER.fields, entry.doc.fields, variant),
    }))
    .sort((a, b) => b.rank - a.rank);
  const education = ranked.slice(0, 12).filter((entry) => entry.doc.fields.includes('education')).length;
  process.stdout.write(
    `${variant.name.padEnd(22)} education in top 12: ${education}; rank:similarity % of medicine ${positions(ranked, 'medicine').join(' ')}` +
      `; of education ${positions(ranked, 'education').join(' ')}\n`,
  );
}
process.stdout.write(`\n(${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
