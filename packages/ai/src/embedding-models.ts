import {
  type AiRepositories,
  type EmbedderStateRepository,
  type EmbeddingModelRow,
  type EmbeddingRepository,
  type InterestRepository,
  type UserRow,
  VECTOR_TARGETS,
  type VectorRepository,
  type VectorTarget,
} from '@radar/db';
import type { AppConfig } from '@radar/shared/server';
import type { Logger } from 'pino';
import {
  BUILTIN_PROVIDER,
  deserializeLsaState,
  HASHING_IDENTITY,
  HashingEmbeddingProvider,
  LSA_KIND,
  LsaEmbeddingProvider,
  lsaIdentity,
  serializeLsaState,
} from './builtin/builtin-embedders';
import { fitLsaModelKeepingRows, LSA_MIN_DOCUMENTS, lsaDimensionFor } from './builtin/lsa-model';
import type { SparseVector } from './builtin/tfidf';
import { CrossLingualTexts } from './cross-lingual-texts';
import {
  MULTILINGUAL_VERSION_SUFFIX,
  OPENAI_COMPATIBLE_PROVIDER,
  OpenAiEmbeddingProvider,
} from './openai/openai-embeddings.adapter';
import type { EmbeddingModelIdentity, EmbeddingProvider, LanguageModel } from './providers';
import { type TermWeighting, vocabularyWeighting } from './reasons/term-weighting';
import { embedStaleRows, vectorProblem } from './stale-vectors';

/** An embedding provider whose model is registered in radar.embedding_models: store vectors with `modelId`. */
export interface RegisteredEmbeddingProvider extends EmbeddingProvider {
  readonly modelId: number;
}

export interface ReembedProgress {
  target: VectorTarget;
  done: number;
  total: number;
}

export interface EmbeddingModelsOptions {
  config: Pick<AppConfig, 'embedding' | 'llm'>;
  /** createAiRepositories, called by the process's composition root. */
  repositories: AiRepositories;
  logger?: Logger | undefined;
  /** Writes the English gists of Chinese items (CrossLingualTexts); none: they are glossed offline. */
  languageModel?: LanguageModel | undefined;
  /** Documents (papers + news) needed before the corpus-fitted model replaces the hashing bootstrap. */
  minFitDocuments?: number;
  /** Refit when the corpus has grown by this factor since the last fit. */
  refitGrowthFactor?: number;
  /** At most this many of the newest documents are used for a fit. */
  fitSampleSize?: number;
  reembedBatchSize?: number;
  /** Rows to embed from which a re-embedding builds the vector indexes after (BULK_REEMBED_ROWS). */
  bulkReembedRows?: number;
  /** Rows per batch of such a re-embedding with a built-in model (BULK_REEMBED_BATCH). */
  bulkReembedBatchSize?: number;
}

/** radar.ingest_rejects source of items the re-embedding could not embed. */
const REEMBED_REJECT_SOURCE = 'reembed';
/**
 * Papers and news items to embed from which a re-embedding drops the model's HNSW indexes and builds
 * them after: updating the graph row by row cost 24 s for 4,850 rows where writing them unindexed and
 * building the index took 3.8 s (PostgreSQL, docs/benchmarks.md); below this the difference is small.
 */
const BULK_REEMBED_ROWS = 2_000;
/**
 * ... and they are at least this share of the corpus. Writing vectors into a model's HNSW graph row by
 * row cost about 11 ms of the PostgreSQL server's CPU a row (7,799 rows into a graph of 19,396) and 8 ms
 * of PGlite's (1,947 into 4,850), where the whole vector step of a fresh import, whose index is dropped
 * and built again after, cost 1.9 ms of the server's CPU a row (19,396 rows, the UPDATE included) and
 * 2.4 ms of PGlite's (4,850 rows, the embedding included): docs/benchmarks.md, h35-ingest third pass.
 * From a fifth of the corpus on, the rebuild is clearly the cheaper. It was a half.
 */
const BULK_REEMBED_SHARE = 1 / 5;
/**
 * Rows per batch of such a bulk pass with a built-in model: each batch is one read and one write
 * whatever its size, and the model's index is being rebuilt anyway, so large batches only save round
 * trips. A remote model keeps the usual batches: a refused batch is retried item by item.
 */
const BULK_REEMBED_BATCH = 1_000;

/**
 * Vectors for papers about to be inserted, so each row is written once with its vector (a later UPDATE
 * would write the row and every index entry of it again). One entry per paper, in order: its vector and
 * the model it is of, or undefined to leave that paper to the re-embedding (a Chinese text whose
 * English gist is made per stored row, a vector the model could not make).
 */
export type NewPaperVectors = (
  papers: readonly { title: string; abstract: string }[],
) => Promise<({ vector: number[]; modelId: number } | undefined)[]>;

/** What a bulk import (`pnpm radar ingest --file`) is told before it stores anything (prepareImport). */
export interface ImportPreparation {
  /** The first fit of the built-in model was made from the file's first works (and the stored corpus). */
  firstFit: { documents: number; dimension: number } | undefined;
  /**
   * Vectors of the active built-in model for papers about to be inserted, so each row is written once
   * with its vector; undefined where a paper is left to the re-embedding (a Chinese text, whose gist is
   * made per stored row; a vector failing the check). Undefined when nothing is to be embedded in the
   * insert: a remote model (its calls may fail or be throttled, and the store would wait on them), or a
   * refit due once the file is stored (every vector would be made again).
   */
  vectors: NewPaperVectors | undefined;
  /**
   * After the import, stored or failed: the vector indexes built again (the model, when they were
   * dropped), the fit's corpus size settled.
   */
  finish(): Promise<EmbeddingModelRow | undefined>;
}

/** Whether the built-in model should be (re)fitted now, and why (or why not). */
export interface RefitDecision {
  due: boolean;
  reason: string;
}

/** Documents a fit reads at most: the newest stored ones, or a file's first (EmbeddingModels.fitSampleSize). */
export const FIT_SAMPLE_SIZE = 20_000;

/**
 * Which embedding model is active, and keeping every stored vector on it. The configuration decides
 * the kind (EMBEDDING_MODEL set: an OpenAI-compatible endpoint; unset: built-in); the database
 * records which exact model (and fitted version) is active, shared by all processes.
 *
 * Changing model: the new model is activated first, then every row whose vector is missing or of
 * another model is re-embedded in the background, users first, then papers and news newest first, so
 * recent recommendations come back within the first batches. Vectors of different models are never
 * compared: every search filters on the active model id.
 */
export class EmbeddingModels {
  private readonly models: EmbeddingRepository;
  private readonly states: EmbedderStateRepository;
  private readonly vectors: VectorRepository;
  private readonly interests: InterestRepository;
  private readonly providers = new Map<number, Promise<RegisteredEmbeddingProvider>>();
  private readonly termWeightings = new Map<number, Promise<TermWeighting>>();
  private readonly minFitDocuments: number;
  private readonly refitGrowthFactor: number;
  /** At most this many documents are read for a fit (the newest stored ones, or a file's first). */
  readonly fitSampleSize: number;
  private readonly reembedBatchSize: number;
  private readonly bulkReembedRows: number;
  private readonly bulkReembedBatchSize: number;
  /** The model fitted last in this process, which holds its fit's tf-idf rows until a re-embedding ends. */
  private fittedProvider: LsaEmbeddingProvider | undefined;
  /** What every paper, news item and profile is embedded from (English gists, glosses, or as written). */
  readonly texts: CrossLingualTexts;

  constructor(private readonly options: EmbeddingModelsOptions) {
    const { embedding, llm } = options.config;
    this.texts = new CrossLingualTexts({
      // Only a remote model can be multilingual (the configuration refuses the flag without one).
      multilingual: Boolean(embedding.model) && embedding.multilingual,
      gists: options.repositories.gists,
      llm: options.languageModel,
      gistDailyLimit: llm.gistDailyLimit,
      logger: options.logger,
    });
    this.models = options.repositories.embeddingModels;
    this.states = options.repositories.embedderStates;
    this.vectors = options.repositories.vectors;
    this.interests = options.repositories.interests;
    this.minFitDocuments = options.minFitDocuments ?? LSA_MIN_DOCUMENTS;
    this.refitGrowthFactor = options.refitGrowthFactor ?? 1.5;
    this.fitSampleSize = options.fitSampleSize ?? FIT_SAMPLE_SIZE;
    this.reembedBatchSize = options.reembedBatchSize ?? 128;
    this.bulkReembedRows = options.bulkReembedRows ?? BULK_REEMBED_ROWS;
    this.bulkReembedBatchSize = options.bulkReembedBatchSize ?? BULK_REEMBED_BATCH;
  }

  get configuredProvider(): string {
    return this.options.config.embedding.model ? OPENAI_COMPATIBLE_PROVIDER : BUILTIN_PROVIDER;
  }

  /**
   * The built-in model's dimension for a fit on `documents` documents: EMBEDDING_DIM when the operator
   * set it (and no remote model is configured), else chosen from the corpus size (lsaDimensionFor).
   */
  builtinDimensionFor(documents: number): number {
    const { model, dimension } = this.options.config.embedding;
    return !model && dimension ? dimension : lsaDimensionFor(documents);
  }

  /**
   * The dimension of a fit when the corpus has `corpusSize` documents (a fit reads at most
   * fitSampleSize of them). Computed from the corpus size stored with each fit, so checking a stored
   * fit gives exactly the dimension it was fitted with unless the configuration changed.
   */
  private dimensionForCorpus(corpusSize: number): number {
    return this.builtinDimensionFor(Math.min(corpusSize, this.fitSampleSize));
  }

  private matchesConfig(row: EmbeddingModelRow): boolean {
    const { model, dimension, multilingual } = this.options.config.embedding;
    if (!model) return row.provider === BUILTIN_PROVIDER;
    return (
      row.provider === OPENAI_COMPATIBLE_PROVIDER &&
      row.name === model &&
      (!dimension || row.dimension === dimension) &&
      // Declaring the endpoint multilingual changes what Chinese items are embedded from: another vector space.
      isMultilingualVersion(row.version) === multilingual
    );
  }

  /**
   * Whether a row read as active is the configured model, so a caller that read it along with other
   * rows (a recommendation's first query) can use it without reading it again.
   */
  isCurrent(row: EmbeddingModelRow): boolean {
    return row.isActive && this.matchesConfig(row);
  }

  /** The active model's row, activating the configured one first when needed. */
  async activeModel(): Promise<EmbeddingModelRow> {
    const active = await this.models.getActiveModel();
    if (active && this.matchesConfig(active)) return active;
    return (await this.syncWithConfig()).model;
  }

  /** The provider of the active model: use it to embed new rows, and store vectors with its modelId. */
  async active(): Promise<RegisteredEmbeddingProvider> {
    return this.providerFor(await this.activeModel());
  }

  /**
   * Makes the configured kind of model the active one. Built-in: the latest fit of the configured
   * dimension, else the hashing bootstrap. Returns whether the active model changed (a re-embed is due).
   */
  async syncWithConfig(): Promise<{ model: EmbeddingModelRow; switched: boolean }> {
    const active = await this.models.getActiveModel();
    if (active && this.matchesConfig(active)) return { model: active, switched: false };

    let target: EmbeddingModelRow;
    const { embedding } = this.options.config;
    if (embedding.model) {
      const remote = await OpenAiEmbeddingProvider.create(this.remoteOptions(embedding.dimension));
      target = await this.models.registerModel(remote.model);
      this.providers.set(target.id, Promise.resolve(withModelId(remote, target.id)));
    } else {
      const latest = await this.states.latest(LSA_KIND);
      target =
        latest && latest.model.dimension === this.dimensionForCorpus(latest.corpusSize)
          ? latest.model
          : await this.models.registerModel(HASHING_IDENTITY);
    }
    if (active?.id !== target.id) {
      await this.models.activateModel(target.id);
      this.options.logger?.info(
        { from: active ? describeModel(active) : null, to: describeModel(target) },
        'embedding model activated; stored vectors will be re-embedded in the background',
      );
    }
    return { model: { ...target, isActive: true }, switched: active?.id !== target.id };
  }

  async providerFor(row: EmbeddingModelRow): Promise<RegisteredEmbeddingProvider> {
    let provider = this.providers.get(row.id);
    if (!provider) {
      provider = this.loadProvider(row);
      this.providers.set(row.id, provider);
      provider.catch(() => this.providers.delete(row.id));
    }
    return provider;
  }

  private remoteOptions(dimension: number | undefined) {
    const { embedding, llm } = this.options.config;
    return {
      model: embedding.model as string,
      dimension,
      baseUrl: embedding.baseUrl,
      apiKey: embedding.apiKey,
      timeoutMs: llm.timeoutMs,
      maxRetries: llm.maxRetries,
      multilingual: embedding.multilingual,
    };
  }

  private async loadProvider(row: EmbeddingModelRow): Promise<RegisteredEmbeddingProvider> {
    const identity: EmbeddingModelIdentity = {
      provider: row.provider,
      name: row.name,
      version: row.version,
      dimension: row.dimension,
    };
    if (row.provider === OPENAI_COMPATIBLE_PROVIDER) {
      if (row.name !== this.options.config.embedding.model) {
        throw new Error(`embedding model ${describeModel(row)} is not the configured EMBEDDING_MODEL`);
      }
      return withModelId(await OpenAiEmbeddingProvider.create(this.remoteOptions(row.dimension)), row.id);
    }
    if (row.provider === BUILTIN_PROVIDER && row.name === HASHING_IDENTITY.name) {
      return withModelId(new HashingEmbeddingProvider(), row.id);
    }
    if (row.provider === BUILTIN_PROVIDER && row.name === LSA_KIND) {
      const stored = await this.states.load(row.id);
      if (!stored) throw new Error(`no fitted state stored for embedding model ${describeModel(row)}`);
      return withModelId(new LsaEmbeddingProvider(deserializeLsaState(stored, row.dimension), identity), row.id);
    }
    throw new Error(`unknown embedding model ${describeModel(row)}`);
  }

  /**
   * Whether a fit of the built-in model is due (two cheap queries, no fitting): none exists yet and
   * the corpus has at least `minFitDocuments` documents, the corpus has grown by the refit factor since
   * the last fit, or the last fit's dimension is not the one chosen now for its size (EMBEDDING_DIM
   * set, changed or unset). Ingestion asks this after storing content, to refit right away.
   */
  async refitDue(): Promise<RefitDecision & { corpusSize: number }> {
    if (this.configuredProvider !== BUILTIN_PROVIDER)
      return { due: false, reason: 'a remote model is configured', corpusSize: 0 };
    const corpusSize = await this.vectors.corpusSize();
    if (corpusSize < this.minFitDocuments) {
      return {
        due: false,
        reason: `the corpus has ${corpusSize} documents; the built-in model is fitted from ${this.minFitDocuments}`,
        corpusSize,
      };
    }
    const latest = await this.states.latest(LSA_KIND);
    if (!latest) return { due: true, reason: 'first fit', corpusSize };
    if (corpusSize >= Math.ceil(latest.corpusSize * this.refitGrowthFactor))
      return { due: true, reason: `the corpus grew from ${latest.corpusSize} to ${corpusSize}`, corpusSize };
    const dimension = this.dimensionForCorpus(latest.corpusSize);
    if (latest.model.dimension !== dimension)
      return {
        due: true,
        reason: `the fitted model has ${latest.model.dimension} dimensions; ${dimension} are configured for its corpus`,
        corpusSize,
      };
    return { due: false, reason: `fitted on ${latest.corpusSize} documents; the corpus has ${corpusSize}`, corpusSize };
  }

  /**
   * Fits a new version of the built-in model when refitDue() says so, or when forced (with a corpus of
   * at least `minFitDocuments`). The new version becomes active; stored vectors then need re-embedding
   * (reembedStale), user profiles included.
   */
  async refitIfDue(options: { force?: boolean } = {}): Promise<{ refitted: boolean; reason: string }> {
    const decision = await this.refitDue();
    const { corpusSize } = decision;
    const forced = options.force === true && this.configuredProvider === BUILTIN_PROVIDER;
    if (!decision.due && !(forced && corpusSize >= this.minFitDocuments)) {
      return { refitted: false, reason: decision.reason };
    }
    const sample = await this.vectors.sampleCorpus(this.fitSampleSize);
    // Fitted on the texts the documents are embedded from (stored gists or glosses for Chinese ones).
    const ofTarget = (prefix: string) =>
      sample.filter((row) => row.id.startsWith(prefix)).map((row) => ({ ...row, id: row.id.slice(prefix.length) }));
    const texts = [
      ...(await this.texts.documents('papers', ofTarget('p'))),
      ...(await this.texts.documents('news', ofTarget('n'))),
    ];
    await this.fitAndActivate(texts, corpusSize);
    return { refitted: true, reason: decision.due ? decision.reason : 'forced' };
  }

  /**
   * Fits the built-in model on `texts` for a corpus of `corpusSize` documents, stores the fit and
   * activates it; the provider keeps the fit's tf-idf rows for the re-embedding or import that follows.
   */
  private async fitAndActivate(texts: string[], corpusSize: number): Promise<EmbeddingModelRow> {
    const started = Date.now();
    const { state, rows } = await fitLsaModelKeepingRows(texts, { dimension: this.dimensionForCorpus(corpusSize) });
    const row = await this.models.registerModel(lsaIdentity(state));
    await this.states.save(serializeLsaState(state, row.id, corpusSize));
    const fitRows = new Map(texts.map((text, index) => [text, rows[index] as SparseVector]));
    this.fittedProvider?.forgetFitRows();
    const provider = new LsaEmbeddingProvider(state, { ...lsaIdentity(state) }, fitRows);
    this.fittedProvider = provider;
    this.providers.set(row.id, Promise.resolve(withModelId(provider, row.id)));
    const previous = await this.models.getActiveModel();
    if (previous?.id !== row.id) await this.models.activateModel(row.id);
    this.options.logger?.info(
      {
        model: describeModel(row),
        corpusSize,
        sampleSize: state.documentCount,
        vocabulary: state.vocabulary.terms.length,
        ms: Date.now() - started,
      },
      'built-in embedding model fitted and activated',
    );
    return row;
  }

  /**
   * Before a bulk import of about `expectedDocuments` papers, whose first ones are `head`:
   * - a built-in installation with no fit yet fits its first model now, from `head` (the file's first
   *   works, at most fitSampleSize) and the newest stored documents up to that size, for the corpus the
   *   import will make, so the papers are stored with their vectors instead of being embedded after
   *   (and the fit's sample is read from the file instead of from the database);
   * - with the active built-in model, `vectors` embeds papers for their insert; as soon as the import
   *   writes vectors and is a bulk one (BULK_REEMBED_ROWS and BULK_REEMBED_SHARE of the corpus, as a
   *   re-embedding), the model's HNSW indexes are dropped and built once by `finish`, instead of
   *   taking the rows one by one.
   */
  async prepareImport(head: {
    papers: readonly { title: string; abstract: string }[];
    expectedDocuments: number;
    /** False leaves the first fit to a running worker (the CLI queues it after the import). */
    mayFit: boolean;
  }): Promise<ImportPreparation> {
    const builtin = this.configuredProvider === BUILTIN_PROVIDER;
    const corpusBefore = builtin ? await this.vectors.corpusSize() : 0;
    const expectedCorpus = corpusBefore + head.expectedDocuments;
    let fitted: { row: EmbeddingModelRow; documents: number } | undefined;
    if (builtin && head.mayFit && !(await this.states.latest(LSA_KIND)))
      fitted = await this.fitBeforeImport(head.papers, expectedCorpus);

    const latest = builtin ? await this.states.latest(LSA_KIND) : undefined;
    // A fit due once the file is stored would make every vector again: none is written in the insert.
    const refitAfter =
      !fitted &&
      (latest
        ? expectedCorpus >= Math.ceil(latest.corpusSize * this.refitGrowthFactor)
        : expectedCorpus >= this.minFitDocuments);
    const model = builtin && !refitAfter ? await this.activeModel() : undefined;
    const embedsInInsert = model?.provider === BUILTIN_PROVIDER;
    const bulk =
      head.expectedDocuments >= this.bulkReembedRows && head.expectedDocuments >= BULK_REEMBED_SHARE * expectedCorpus;
    let deferred: EmbeddingModelRow | undefined;
    // The model active when the import starts makes all its vectors, each tagged with that model (a refit
    // meanwhile leaves them to the re-embedding, like any vector of another model). Asking the database
    // again for each chunk queued the question behind the insert of the chunk before: the next chunk's
    // embedding then waited for the database instead of running beside it.
    let activeProvider: Promise<RegisteredEmbeddingProvider> | undefined;

    const vectors = embedsInInsert
      ? async (papers: readonly { title: string; abstract: string }[]) => {
          activeProvider ??= this.active().catch((error: unknown) => {
            activeProvider = undefined; // asked again for the next chunk
            throw error;
          });
          const provider = await activeProvider;
          if (bulk && !deferred && provider.modelId === model.id) {
            deferred = model;
            await this.models.dropIndexes(model);
          }
          const texts = papers.map((paper) => this.texts.unstoredDocument(paper.title, paper.abstract));
          const indices = texts.flatMap((text, index) => (text === undefined ? [] : [index]));
          const made = await provider.embed(indices.map((index) => texts[index] as string));
          const out: ({ vector: number[]; modelId: number } | undefined)[] = new Array(papers.length).fill(undefined);
          indices.forEach((index, position) => {
            const vector = made[position];
            if (vectorProblem(vector, provider.model.dimension) === undefined) {
              out[index] = { vector: vector as number[], modelId: provider.modelId };
            }
          });
          return out;
        }
      : undefined;

    return {
      firstFit: fitted && { documents: fitted.documents, dimension: fitted.row.dimension },
      vectors,
      finish: async () => {
        // The fit stands for the corpus the import made, not the estimate it was fitted for, unless that
        // corpus calls for another dimension (the estimate was across a step of lsaDimensionFor): then
        // the estimate stays, and the next refit comes when the corpus has grown from it, instead of
        // right now with every vector made again.
        if (fitted) {
          const corpusSize = await this.vectors.corpusSize();
          if (this.dimensionForCorpus(corpusSize) === fitted.row.dimension)
            await this.states.setCorpusSize(fitted.row.id, corpusSize);
        }
        const indexed = deferred;
        deferred = undefined;
        if (indexed) await this.models.ensureIndexes(indexed);
        return indexed;
      },
    };
  }

  /** The first fit, made before an import from its first papers (prepareImport). */
  private async fitBeforeImport(
    papers: readonly { title: string; abstract: string }[],
    expectedCorpus: number,
  ): Promise<{ row: EmbeddingModelRow; documents: number } | undefined> {
    const fromFile = papers
      .slice(0, this.fitSampleSize)
      .map((paper) => this.texts.unstoredDocument(paper.title, paper.abstract, { glossed: true }) as string);
    // What is stored already (a few news items, a demo) takes its share, newest first, as in a refit.
    const stored =
      fromFile.length < this.fitSampleSize ? await this.vectors.sampleCorpus(this.fitSampleSize - fromFile.length) : [];
    const ofTarget = (prefix: string) =>
      stored.filter((row) => row.id.startsWith(prefix)).map((row) => ({ ...row, id: row.id.slice(prefix.length) }));
    const texts = [
      ...fromFile,
      ...(await this.texts.documents('papers', ofTarget('p'))),
      ...(await this.texts.documents('news', ofTarget('n'))),
    ];
    if (texts.length < this.minFitDocuments || expectedCorpus < this.minFitDocuments) return undefined;
    const row = await this.fitAndActivate(texts, expectedCorpus);
    return { row, documents: texts.length };
  }

  /** Rows (users, papers, news) whose vector is missing or from another model than the active one. */
  async countPending(): Promise<{ model: EmbeddingModelRow; pending: Record<VectorTarget, number> }> {
    const model = await this.activeModel();
    return { model, pending: await this.vectors.countStale(model.id) };
  }

  /**
   * Embeds every row whose vector is missing or from another model with the active model, in batches
   * (embedStaleRows, the loop new items go through too: every vector checked, a failed batch retried
   * item by item, failures recorded in radar.ingest_rejects as source "reembed"; each batch is
   * committed, so an interrupted run resumes where it stopped). Restarts when another process
   * activates a different model meanwhile, and makes another pass when rows went stale behind it (a
   * profile confirmed, or a content-embed batch of the previous model written, during the pass), so
   * that afterwards every user with a summary has a vector of the active model, unless its embedding
   * failed. `embedded` counts the vectors written over all passes, `failed` the items that could not
   * be embedded.
   */
  async reembedStale(
    options: { onProgress?: (progress: ReembedProgress) => Promise<void> | void; signal?: AbortSignal } = {},
  ): Promise<{
    model: EmbeddingModelRow;
    embedded: Record<VectorTarget, number>;
    failed: Record<VectorTarget, number>;
  }> {
    await this.vectors.clearVectorsOfEmptyProfiles();
    const embedded: Record<VectorTarget, number> = { users: 0, papers: 0, news: 0 };
    const failed: Record<VectorTarget, number> = { users: 0, papers: 0, news: 0 };
    // Models whose vector indexes this call dropped: built again before it returns, however it ends.
    const deferred = new Map<number, EmbeddingModelRow>();
    try {
      return await this.reembedRounds(embedded, failed, deferred, options);
    } finally {
      this.fittedProvider?.forgetFitRows();
      for (const model of deferred.values()) await this.models.ensureIndexes(model);
      // Also when a pass or an import that dropped them was stopped before it built them again.
      const active = await this.models.getActiveModel();
      if (active && !deferred.has(active.id)) await this.models.ensureIndexes(active);
    }
  }

  private async reembedRounds(
    embedded: Record<VectorTarget, number>,
    failed: Record<VectorTarget, number>,
    deferred: Map<number, EmbeddingModelRow>,
    options: { onProgress?: (progress: ReembedProgress) => Promise<void> | void; signal?: AbortSignal },
  ): Promise<{
    model: EmbeddingModelRow;
    embedded: Record<VectorTarget, number>;
    failed: Record<VectorTarget, number>;
  }> {
    for (let round = 0; ; round++) {
      const provider = await this.active();
      const model = await this.activeModel();
      const start = { ...embedded };
      const stale = await this.vectors.countStale(provider.modelId);
      // Many rows to embed, a fifth of the corpus or more (a refit, a bulk import):
      // the HNSW indexes are built once at the end instead of updated row by row (docs/decisions.md).
      const documents = stale.papers + stale.news;
      if (
        !deferred.has(model.id) &&
        documents >= this.bulkReembedRows &&
        documents >= BULK_REEMBED_SHARE * (await this.vectors.corpusSize())
      ) {
        await this.models.dropIndexes(model);
        deferred.set(model.id, model);
      }
      const batchSize =
        deferred.has(model.id) && model.provider === BUILTIN_PROVIDER
          ? this.bulkReembedBatchSize
          : this.reembedBatchSize;
      let switched = false;
      let failedThisRound = 0;
      for (const target of VECTOR_TARGETS) {
        const pass = await embedStaleRows(this.options.repositories, {
          target,
          modelId: provider.modelId,
          dimension: model.dimension,
          provider,
          textsOf: (rows) =>
            target === 'users'
              ? rows.map((row) => this.texts.profile(row.body, row.title))
              : this.texts.documents(target, rows, { makeGists: true, signal: options.signal }),
          batchSize,
          rejectSource: REEMBED_REJECT_SOURCE,
          shouldStop: async () => (await this.models.getActiveModel())?.id !== provider.modelId,
          onBatch: async (done) => {
            const total = start[target] + done;
            await options.onProgress?.({ target, done: total, total: Math.max(start[target] + stale[target], total) });
          },
          signal: options.signal,
          logger: this.options.logger,
        });
        embedded[target] += pass.embedded;
        failed[target] += pass.failed;
        failedThisRound += pass.failed;
        if (pass.stopped) {
          switched = true;
          break;
        }
      }
      if (round >= 3) return { model, embedded, failed };
      if (switched) {
        this.options.logger?.info('active embedding model changed during re-embedding; continuing with the new one');
        continue;
      }
      // What is left is what failed in this pass (retried by the next maintain job), or rows that went
      // stale behind it: only the latter make another pass worthwhile.
      const left = await this.vectors.countStale(provider.modelId);
      if (left.users + left.papers + left.news <= failedThisRound) return { model, embedded, failed };
    }
  }

  /**
   * (Re)computes one profile vector from the research summary and the Chinese text it was drafted from
   * (CrossLingualTexts.profile); clears it when there is no summary. Returns whether the user has one.
   */
  async embedProfile(
    user: Pick<UserRow, 'id' | 'researchSummaryEn' | 'researchDescription'>,
  ): Promise<{ hasVector: boolean; modelId?: number }> {
    const userId = user.id;
    const text = this.texts.profile(user.researchSummaryEn, user.researchDescription);
    if (!text) {
      await this.vectors.clearUserVector(userId);
      return { hasVector: false };
    }
    const provider = await this.active();
    const [vector] = await provider.embed([text]);
    const problem = vectorProblem(vector, provider.model.dimension);
    if (problem) throw new Error(`the embedding provider returned ${problem} for the profile`);
    await this.vectors.setUserVector(userId, provider.modelId, vector as number[]);
    return { hasVector: true, modelId: provider.modelId };
  }

  /**
   * The vector of the active model of a text a reader typed (a research interest's description, a
   * semantic search query), by the profile's path (English as written; Chinese as written with a
   * multilingual endpoint, else glossed through the one glossary): such a text is compared with papers
   * and news exactly as the research summary is, whatever its language.
   */
  async embedReaderText(text: string): Promise<{ modelId: number; vector: number[] }> {
    const provider = await this.active();
    const [vector] = await provider.embed([this.texts.profile(text)]);
    const problem = vectorProblem(vector, provider.model.dimension);
    if (problem) throw new Error(`the embedding provider returned ${problem} for a typed text`);
    return { modelId: provider.modelId, vector: vector as number[] };
  }

  /**
   * Puts the readers' interests on the active model (after a model change, or when embedding one failed
   * when it was saved): typed ones embedded again from their description, batch by batch; those made
   * from favourites recomputed as the mean of their papers' vectors of this model, in one statement.
   * Idempotent: only interests whose vector is missing or of another model are touched. A typed interest
   * the provider refuses stays without a vector (not used by the ranking) and is counted in `failed`.
   */
  async reembedInterests(): Promise<{ embedded: number; failed: number }> {
    const provider = await this.active();
    let embedded = await this.interests.refreshFavoriteVectors({ id: provider.modelId });
    let failed = 0;
    const skipped = new Set<number>();
    for (;;) {
      const rows = (await this.interests.listStaleTyped(provider.modelId, this.reembedBatchSize + skipped.size)).filter(
        (row) => !skipped.has(row.id),
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        try {
          const [vector] = await provider.embed([this.texts.profile(row.description)]);
          const problem = vectorProblem(vector, provider.model.dimension);
          if (problem) throw new Error(`the embedding provider returned ${problem}`);
          await this.interests.setVector(row.id, provider.modelId, vector as number[]);
          embedded++;
        } catch (error) {
          failed++;
          skipped.add(row.id);
          this.options.logger?.warn({ interestId: row.id, err: (error as Error).message }, 'interest embedding failed');
        }
      }
    }
    return { embedded, failed };
  }

  /**
   * The active built-in LSA model's idf, to weigh the terms a recommendation names as its reason;
   * undefined for a remote model or the hashing bootstrap, which have no vocabulary (use idfOf over
   * the texts at hand). Loaded once per model version and process. `active`: the active row when the
   * caller has just read it.
   */
  async termWeighting(active?: EmbeddingModelRow): Promise<TermWeighting | undefined> {
    const row = active ?? (await this.activeModel());
    if (row.provider !== BUILTIN_PROVIDER || row.name !== LSA_KIND) return undefined;
    let weighting = this.termWeightings.get(row.id);
    if (!weighting) {
      weighting = this.states.load(row.id).then((stored) => {
        if (!stored) throw new Error(`no fitted state stored for embedding model ${describeModel(row)}`);
        return vocabularyWeighting(deserializeLsaState(stored, row.dimension).vocabulary);
      });
      // Only the active version is kept: a refit replaces it for good.
      this.termWeightings.clear();
      this.termWeightings.set(row.id, weighting);
      weighting.catch(() => this.termWeightings.delete(row.id));
    }
    return weighting;
  }

  /** Papers that can be recommended: those with a vector of the active model. */
  async countRecommendable(): Promise<number> {
    const model = await this.activeModel();
    return (await this.vectors.countCurrent(model.id)).papers;
  }
}

/** Version suffix of a remote model declared multilingual (EMBEDDING_MULTILINGUAL). */
function isMultilingualVersion(version: string): boolean {
  return version.endsWith(MULTILINGUAL_VERSION_SUFFIX);
}

function withModelId(provider: EmbeddingProvider, modelId: number): RegisteredEmbeddingProvider {
  return { model: provider.model, modelId, embed: (texts) => provider.embed(texts) };
}

export function describeModel(row: Pick<EmbeddingModelRow, 'provider' | 'name' | 'version' | 'dimension'>): string {
  return `${row.provider}/${row.name}@${row.version} (${row.dimension} dimensions)`;
}
