/**
 * `node --import tsx bench/quality-by-size.ts [sizes] [dimensions] [file.csv]`: precision@20 of the
 * built-in embedders by corpus size, on class-balanced random samples of the labelled dev set (the
 * protocol of `pnpm bench:quality` within each sample: every paper is a query, the others are ranked).
 * For each size: the tf-idf baseline, the hashing bootstrap and tf-idf + LSA at each dimension, fitted
 * on the sample itself. Smaller samples are drawn several times (fixed seeds) and averaged. This is how
 * the first-fit threshold (LSA_MIN_DOCUMENTS) and the size rule (lsaDimensionFor) were chosen; record
 * results in docs/benchmarks.md.
 */
import os from 'node:os';
import path from 'node:path';
import { HashingEmbeddingProvider } from '../packages/ai/src/builtin/builtin-embedders';
import { fitLsaModel, LsaEmbedder } from '../packages/ai/src/builtin/lsa-model';
import {
  denseCosinePrecision,
  type LabelledDocument,
  readLabelledCsv,
  tfidfBaselinePrecision,
} from '../packages/ai/src/testing/labelled-set';
import { sharedFixturesDir } from '../packages/db/src/testing/fixtures';
import { seededRandom } from '../packages/shared/src';

const sizes = (process.argv[2] ?? '50,100,200,400,800').split(',').map(Number);
const dimensions = (process.argv[3] ?? '16,32,48,64,96,128').split(',').map(Number);
const file = path.resolve(process.argv[4] ?? path.join(sharedFixturesDir(), 'eval/arxiv_cs_4class_balanced_800.csv'));
const samplesFor = (size: number) => (size <= 200 ? 10 : size < 800 ? 3 : 1);

/** `size` documents, as many of each label as possible, drawn with a fixed seed. */
function balancedSample(documents: LabelledDocument[], size: number, seed: number): LabelledDocument[] {
  const random = seededRandom(seed);
  const labels = [...new Set(documents.map((d) => d.label))].sort();
  return labels.flatMap((label, i) => {
    const pool = documents.filter((d) => d.label === label);
    for (let j = pool.length - 1; j > 0; j--) {
      const k = Math.floor(random() * (j + 1));
      [pool[j], pool[k]] = [pool[k] as LabelledDocument, pool[j] as LabelledDocument];
    }
    return pool.slice(0, Math.floor(size / labels.length) + (i < size % labels.length ? 1 : 0));
  });
}

const all = await readLabelledCsv(file);
process.stdout.write(
  `${path.basename(file)}: ${all.length} documents; precision@20 by corpus size (mean over samples); ${os.cpus().length} cores, Node ${process.version}\n\n`,
);
const header = ['documents', 'samples', 'tf-idf', 'hashing', ...dimensions.map((d) => `LSA ${d}`)];
process.stdout.write(`${header.join(' | ')}\n`);
for (const size of sizes) {
  const samples = size >= all.length ? 1 : samplesFor(size);
  const sums = new Array<number>(2 + dimensions.length).fill(0);
  const fitMs = new Array<number>(dimensions.length).fill(0);
  for (let s = 1; s <= samples; s++) {
    const documents = size >= all.length ? all : balancedSample(all, size, s * 7_919);
    const labels = documents.map((d) => d.label);
    const texts = documents.map((d) => d.text);
    sums[0] = (sums[0] as number) + tfidfBaselinePrecision(documents);
    sums[1] = (sums[1] as number) + denseCosinePrecision(labels, await new HashingEmbeddingProvider().embed(texts));
    for (const [i, dimension] of dimensions.entries()) {
      const started = performance.now();
      const lsa = new LsaEmbedder(await fitLsaModel(texts, { dimension }));
      fitMs[i] = (fitMs[i] as number) + performance.now() - started;
      sums[2 + i] =
        (sums[2 + i] as number) +
        denseCosinePrecision(
          labels,
          texts.map((text) => lsa.embedOne(text)),
        );
    }
  }
  const cells = sums.map((sum) => (sum / samples).toFixed(3));
  process.stdout.write(
    `${[size, samples, ...cells].join(' | ')}   (fit s: ${fitMs.map((ms) => (ms / samples / 1000).toFixed(2)).join(' ')})\n`,
  );
}
