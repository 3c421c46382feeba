import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@radar/shared/server';
import { HashingEmbeddingProvider } from './builtin/builtin-embedders';
import { fitLsaModel, LsaEmbedder, lsaDimensionFor } from './builtin/lsa-model';
import { OpenAiEmbeddingProvider } from './openai/openai-embeddings.adapter';
import { denseCosinePrecision, readLabelledCsv, tfidfBaselinePrecision } from './quality-benchmark';

/**
 * The body of `pnpm bench:quality` (bench/quality.ts): precision@20 of the active embedder and of the
 * plain tf-idf cosine baseline on a labelled set. The built-in embedder is fitted on the set itself,
 * as it is fitted on the corpus in production. With EMBEDDING_MODEL set, the configured
 * OpenAI-compatible endpoint is measured instead.
 */
export async function runQualityBenchmark(file: string, write: (text: string) => void): Promise<number> {
  if (!fs.existsSync(file)) {
    write(`bench:quality: labelled set not found: ${file}\n`);
    return 1;
  }
  const config = loadConfig();
  const documents = await readLabelledCsv(file);
  const labels = documents.map((d) => d.label);
  const texts = documents.map((d) => d.text);
  const line = (name: string, value: number, ms: number) =>
    write(`${name.padEnd(48)} ${value.toFixed(4)}   (${(ms / 1000).toFixed(1)} s)\n`);

  write(
    `${path.basename(file)}: ${documents.length} documents, ${new Set(labels).size} classes; precision@20 over all ${documents.length} queries\n`,
  );
  write(`machine: ${os.cpus().length} cores, ${os.type()} ${os.release()}, Node ${process.version}\n\n`);

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
    line(
      `active: ${remote.model.name} (${remote.model.dimension} d)`,
      denseCosinePrecision(labels, vectors),
      Date.now() - started,
    );
  } else {
    // As in production: EMBEDDING_DIM when set, else the size chosen for a corpus of this many documents.
    const dimension = config.embedding.dimension ?? lsaDimensionFor(documents.length);
    started = Date.now();
    const state = await fitLsaModel(texts, { dimension });
    const lsa = new LsaEmbedder(state);
    const vectors = texts.map((text) => lsa.embedOne(text));
    line(
      `active: built-in tfidf-lsa (${dimension} d; fit + embed)`,
      denseCosinePrecision(labels, vectors),
      Date.now() - started,
    );
  }

  started = Date.now();
  const hashing = new HashingEmbeddingProvider();
  line(
    'built-in hashing-512 (bootstrap before a fit)',
    denseCosinePrecision(labels, await hashing.embed(texts)),
    Date.now() - started,
  );
  return 0;
}
