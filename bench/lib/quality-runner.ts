import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@radar/shared/server';
import { HashingEmbeddingProvider } from '../../packages/ai/src/builtin/builtin-embedders';
import { fitLsaModel, LsaEmbedder, lsaDimensionFor } from '../../packages/ai/src/builtin/lsa-model';
import { LEARNING_WEIGHTS, type LearningWeights } from '../../packages/ai/src/learning/profile-learning';
import { OpenAiEmbeddingProvider } from '../../packages/ai/src/openai/openai-embeddings.adapter';
import {
  denseCosinePrecision,
  type ReaderSimulationOptions,
  readLabelledCsv,
  simulateReader,
  tfidfBaselinePrecision,
} from '../../packages/ai/src/testing/labelled-set';
import {
  classifierMethod,
  type MethodRounds,
  READER_METHODS,
  simulateMultiInterestReaders,
} from '../../packages/ai/src/testing/simulated-readers';

/**
 * The body of `pnpm bench:quality` (bench/quality.ts): precision@20 of the active embedder and of the
 * plain tf-idf cosine baseline on a labelled set. The built-in embedder is fitted on the set itself,
 * as it is fitted on the corpus in production. With EMBEDDING_MODEL set, the configured
 * OpenAI-compatible endpoint is measured as the active model, and the built-in one beside it. Then the
 * simulated reader of issue 13 (`simulateReader`): precision@20 per round of feedback, plain and learning,
 * for the built-in embedder (with other learning weights for comparison) and the configured endpoint.
 */
export async function runQualityBenchmark(
  file: string,
  write: (text: string) => void,
  options: { json?: boolean } = {},
): Promise<number> {
  if (!fs.existsSync(file)) {
    write(`bench:quality: labelled set not found: ${file}\n`);
    return 1;
  }
  const config = loadConfig();
  const documents = await readLabelledCsv(file);
  const labels = documents.map((d) => d.label);
  const texts = documents.map((d) => d.text);
  if (options.json) {
    // Only the multi-interest readers, on the built-in model: method -> precision@20 per round.
    const dimension = (!config.embedding.model && config.embedding.dimension) || lsaDimensionFor(documents.length);
    const lsa = new LsaEmbedder(await fitLsaModel(texts, { dimension }));
    const { methods } = simulateMultiInterestReaders(
      labels,
      texts.map((text) => lsa.embedOne(text)),
    );
    write(`${JSON.stringify(Object.fromEntries(Object.entries(methods).map(([name, m]) => [name, m.precision])))}\n`);
    return 0;
  }
  const line = (name: string, value: number, ms: number) =>
    write(`${name.padEnd(48)} ${value.toFixed(4)}   (${(ms / 1000).toFixed(1)} s)\n`);

  write(
    `${path.basename(file)}: ${documents.length} documents, ${new Set(labels).size} classes; precision@20 over all ${documents.length} queries\n`,
  );
  write(`machine: ${os.cpus().length} cores, ${os.type()} ${os.release()}, Node ${process.version}\n\n`);

  const simulated: { name: string; vectors: number[][] }[] = [];
  let started = Date.now();
  line('tf-idf cosine baseline', tfidfBaselinePrecision(documents), Date.now() - started);

  if (config.embedding.model) {
    started = Date.now();
    const remote = await OpenAiEmbeddingProvider.create({
      model: config.embedding.model,
      dimension: config.embedding.dimension,
      baseUrl: config.embedding.baseUrl,
      apiKey: config.embedding.apiKey,
      timeoutMs: config.llm.timeoutMs,
      maxRetries: config.llm.maxRetries,
    });
    const vectors = await remote.embed(texts);
    simulated.push({ name: remote.model.name, vectors });
    line(
      `active: ${remote.model.name} (${remote.model.dimension} d)`,
      denseCosinePrecision(labels, vectors),
      Date.now() - started,
    );
  }
  // The reader simulation always measures the built-in model; as in production, EMBEDDING_DIM sizes it
  // when it is the active model, else the size chosen for a corpus of this many documents.
  const dimension = (!config.embedding.model && config.embedding.dimension) || lsaDimensionFor(documents.length);
  started = Date.now();
  const state = await fitLsaModel(texts, { dimension });
  const lsa = new LsaEmbedder(state);
  const lsaVectors = texts.map((text) => lsa.embedOne(text));
  simulated.unshift({ name: `built-in tfidf-lsa (${dimension} d)`, vectors: lsaVectors });
  line(
    `${config.embedding.model ? '' : 'active: '}built-in tfidf-lsa (${dimension} d; fit + embed)`,
    denseCosinePrecision(labels, lsaVectors),
    Date.now() - started,
  );

  started = Date.now();
  const hashing = new HashingEmbeddingProvider();
  line(
    'built-in hashing-512 (bootstrap before a fit)',
    denseCosinePrecision(labels, await hashing.embed(texts)),
    Date.now() - started,
  );

  writeReaderSimulation(labels, simulated, write);
  writeMultiInterestReaders(labels, lsaVectors, write);
  return 0;
}

/** Issue 23: readers with 2-3 interests who rate what they see, by method (READER_METHODS). */
function writeMultiInterestReaders(labels: string[], vectors: number[][], write: (text: string) => void): void {
  const table = (title: string, ratedPerRound?: number, methods = READER_METHODS) => {
    const started = Date.now();
    const result = simulateMultiInterestReaders(labels, vectors, {
      methods,
      ...(ratedPerRound ? { ratedPerRound } : {}),
    });
    const rows = (heading: string, pick: (m: MethodRounds) => number[], digits: number) => {
      write(`${heading.padEnd(32)}\n`);
      for (const [name, rounds] of Object.entries(result.methods))
        write(
          `${`  ${name}`.padEnd(32)} ${pick(rounds)
            .map((v) => v.toFixed(digits).padEnd(6))
            .join('  ')
            .trimEnd()}\n`,
        );
    };
    write(`\n${title} (${result.readers} readers, ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    write(`${'by round'.padEnd(32)} 0       1       2       3       4       5\n`);
    rows('precision of the 20 unseen shown', (m) => m.precision, 4);
    rows('unseen papers on page 1', (m) => m.unseenOnFirstPage, 1);
    rows('pages opened to see 20 unseen', (m) => m.pages, 1);
    rows('smallest interest share (20 unseen)', (m) => m.smallestInterestShare, 4);
  };
  write(
    `\nreaders with 2-3 interests (categories of the set; summary = mean of one paper of each), built-in model;\n` +
      `each round is a visit to /papers as the product answers it (issue 31): the list leaves out 👎 and 👍 papers\n` +
      `(unless a method keeps 👍: 含已评价) and the reader's own; the reader pages (加载更多) until 20 papers not seen\n` +
      `before are shown and rates them (👍 own category, 👎 otherwise)\n`,
  );
  table('rating all 20 unseen shown', undefined, [
    ...READER_METHODS,
    // What the product did before issue 31: 👍 papers stay in the list and fill the first page.
    { ...classifierMethod('classifier, 👍 kept (含已评价)'), includeRated: true },
  ]);
  // Where to switch on: the classifier from 1 and from 2 signals beside the product's switch.
  table('rating only the top 1 shown per round (where the classifier switches on)', 1, [
    ...READER_METHODS,
    classifierMethod('classifier from 1 signal', 1),
    classifierMethod('classifier from 2 signals', 2),
  ]);
}

const SHOWN = 20;

/** Learning weights compared in the sensitivity table: no learning, the classic range, and beyond it. */
const COMPARED_WEIGHTS: { weights: LearningWeights; note?: string }[] = [
  { weights: { profile: 1, liked: 0, dismissed: 0 }, note: 'dismissed removed, no learning' },
  { weights: { profile: 1, liked: 0.5, dismissed: 0.1 } },
  { weights: { profile: 1, liked: 0.75, dismissed: 0.15 }, note: 'textbook Rocchio' },
  { weights: { profile: 1, liked: 1, dismissed: 0.5 } },
  { weights: { profile: 1, liked: 2, dismissed: 0.5 } },
  { weights: { profile: 1, liked: 4, dismissed: 1 } },
];

function writeReaderSimulation(
  labels: string[],
  embedders: { name: string; vectors: number[][] }[],
  write: (text: string) => void,
): void {
  const describe = ({ profile, liked, dismissed }: LearningWeights) => `${profile}/${liked}/${dismissed}`;
  const row = (name: string, values: number[], ms?: number, digits = 4) =>
    write(
      `${name.padEnd(56)} ${values
        .map((v) => v.toFixed(digits).padEnd(6))
        .join('  ')
        .trimEnd()}${ms === undefined ? '' : `   (${(ms / 1000).toFixed(1)} s)`}\n`,
    );
  const simulate = (vectors: number[][], options: ReaderSimulationOptions) => {
    const started = Date.now();
    return { ...simulateReader(labels, vectors, { shown: SHOWN, ...options }), ms: Date.now() - started };
  };

  write(
    `\nsimulated reader: ${labels.length} queries, each paper's vector the profile; per round the top ${SHOWN} shown are judged:\n` +
      `relevant ones favourited, up to 5 irrelevant ones dismissed (removed for good), then the ranking is recomputed\n` +
      `from learnedProfileVector (weights profile/liked/dismissed, LEARNING_WEIGHTS ${describe(LEARNING_WEIGHTS)});\n` +
      `favourites stay in the list as in the product, so a page repeats them: the unseen rows count only papers\n` +
      `not on an earlier page (issue 31)\n`,
  );
  write(
    `${'precision@20 by round'.padEnd(56)} ${['0', '1', '2', '3']
      .map((r) => r.padEnd(6))
      .join('  ')
      .trimEnd()}\n`,
  );
  for (const [i, { name, vectors }] of embedders.entries()) {
    const result = simulate(vectors, {});
    row(`${name}: plain`, result.plain);
    row(`${name}: learning`, result.learning, result.ms);
    row(`  learning: unseen papers on the page`, result.learningUnseen, undefined, 1);
    row(`  learning: precision of the unseen (of 20)`, result.learningUnseenPrecision);
    if (i > 0) continue;
    // The sensitivity table and a sparser reader, on the built-in model only.
    for (const { weights, note } of COMPARED_WEIGHTS) {
      const compared = simulate(vectors, { weights });
      row(`  weights ${describe(weights)}${note ? ` (${note})` : ''}`, compared.learning, compared.ms);
    }
    const sparse = simulate(vectors, { likesPerRound: 2 });
    row('  reader favouriting at most 2 per round: learning', sparse.learning, sparse.ms);
  }
}
