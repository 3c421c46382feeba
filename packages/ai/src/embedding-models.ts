import {
  type DatabaseHandle,
  EmbedderStateRepository,
  type EmbeddingModelRow,
  EmbeddingRepository,
  VECTOR_TARGETS,
  VectorRepository,
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
import { fitLsaModel, LSA_MIN_DOCUMENTS } from './builtin/lsa-model';
import { documentEmbeddingText, profileEmbeddingText } from './embedding-text';
import { OPENAI_COMPATIBLE_PROVIDER, OpenAiEmbeddingProvider } from './openai/openai-embeddings.adapter';
import type { EmbeddingModelIdentity, EmbeddingProvider } from './providers';

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
  database: DatabaseHandle;
  logger?: Logger | undefined;
  /** Documents (papers + news) needed before the corpus-fitted model replaces the hashing bootstrap. */
  minFitDocuments?: number;
  /** Refit when the corpus has grown by this factor since the last fit. */
  refitGrowthFactor?: number;
  /** At most this many of the newest documents are used for a fit. */
  fitSampleSize?: number;
  reembedBatchSize?: number;
}

export const DEFAULT_LSA_DIMENSION = 128;

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
  private readonly providers = new Map<number, Promise<RegisteredEmbeddingProvider>>();
  private readonly minFitDocuments: number;
  private readonly refitGrowthFactor: number;
  private readonly fitSampleSize: number;
  private readonly reembedBatchSize: number;

  constructor(private readonly options: EmbeddingModelsOptions) {
    this.models = new EmbeddingRepository(options.database.db);
    this.states = new EmbedderStateRepository(options.database.db);
    this.vectors = new VectorRepository(options.database.db);
    this.minFitDocuments = options.minFitDocuments ?? LSA_MIN_DOCUMENTS;
    this.refitGrowthFactor = options.refitGrowthFactor ?? 1.5;
    this.fitSampleSize = options.fitSampleSize ?? 20_000;
    this.reembedBatchSize = options.reembedBatchSize ?? 128;
  }

  get configuredProvider(): string {
    return this.options.config.embedding.model ? OPENAI_COMPATIBLE_PROVIDER : BUILTIN_PROVIDER;
  }

  /** The built-in model's dimension: EMBEDDING_DIM when no remote model is configured, else 128. */
  get builtinDimension(): number {
    const { model, dimension } = this.options.config.embedding;
    return !model && dimension ? dimension : DEFAULT_LSA_DIMENSION;
  }

  private matchesConfig(row: EmbeddingModelRow): boolean {
    const { model, dimension } = this.options.config.embedding;
    if (!model) return row.provider === BUILTIN_PROVIDER;
    return (
      row.provider === OPENAI_COMPATIBLE_PROVIDER && row.name === model && (!dimension || row.dimension === dimension)
    );
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
        latest && latest.model.dimension === this.builtinDimension
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
   * Fits a new version of the built-in model when none exists yet and the corpus is large enough, when
   * the corpus has grown by the refit factor since the last fit, when the configured dimension
   * changed, or when forced. The new version becomes active; stored vectors then need re-embedding.
   */
  async refitIfDue(options: { force?: boolean } = {}): Promise<{ refitted: boolean; reason: string }> {
    if (this.configuredProvider !== BUILTIN_PROVIDER)
      return { refitted: false, reason: 'a remote model is configured' };
    const corpusSize = await this.vectors.corpusSize();
    if (corpusSize < this.minFitDocuments) {
      return {
        refitted: false,
        reason: `the corpus has ${corpusSize} documents; the built-in model is fitted from ${this.minFitDocuments}`,
      };
    }
    const latest = await this.states.latest(LSA_KIND);
    const grown = latest ? corpusSize >= Math.ceil(latest.corpusSize * this.refitGrowthFactor) : true;
    const dimensionChanged = latest ? latest.model.dimension !== this.builtinDimension : false;
    if (!options.force && !grown && !dimensionChanged) {
      return { refitted: false, reason: `fitted on ${latest?.corpusSize} documents; the corpus has ${corpusSize}` };
    }
    const started = Date.now();
    const sample = await this.vectors.sampleCorpus(this.fitSampleSize);
    const state = await fitLsaModel(
      sample.map((row) => documentEmbeddingText(row.title, row.body)),
      { dimension: this.builtinDimension },
    );
    const row = await this.models.registerModel(lsaIdentity(state));
    await this.states.save(serializeLsaState(state, row.id, corpusSize));
    const provider = new LsaEmbeddingProvider(state, { ...lsaIdentity(state) });
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
    return {
      refitted: true,
      reason: latest ? `the corpus grew from ${latest.corpusSize} to ${corpusSize}` : 'first fit',
    };
  }

  /** Rows (users, papers, news) whose vector is missing or from another model than the active one. */
  async countPending(): Promise<{ model: EmbeddingModelRow; pending: Record<VectorTarget, number> }> {
    const model = await this.activeModel();
    return { model, pending: await this.vectors.countStale(model.id) };
  }

  /**
   * Embeds every row whose vector is missing or from another model with the active model, in batches
   * (each batch is committed, so an interrupted run resumes where it stopped). Restarts when another
   * process activates a different model meanwhile.
   */
  async reembedStale(
    options: { onProgress?: (progress: ReembedProgress) => Promise<void> | void; signal?: AbortSignal } = {},
  ): Promise<{ model: EmbeddingModelRow; embedded: Record<VectorTarget, number> }> {
    await this.vectors.clearVectorsOfEmptyProfiles();
    for (let round = 0; ; round++) {
      const provider = await this.active();
      const model = await this.activeModel();
      const embedded: Record<VectorTarget, number> = { users: 0, papers: 0, news: 0 };
      const stale = await this.vectors.countStale(provider.modelId);
      let switched = false;
      for (const target of VECTOR_TARGETS) {
        let beforeId: string | undefined;
        for (;;) {
          if (options.signal?.aborted) throw new Error('re-embedding aborted');
          const rows = await this.vectors.listStale(target, provider.modelId, {
            limit: this.reembedBatchSize,
            beforeId,
          });
          if (rows.length === 0) break;
          const texts = rows.map((row) =>
            target === 'users' ? profileEmbeddingText(row.body) : documentEmbeddingText(row.title, row.body),
          );
          const vectors = await provider.embed(texts);
          await this.vectors.setVectors(
            target,
            provider.modelId,
            rows.map((row, i) => ({ id: row.id, vector: vectors[i] as number[] })),
          );
          beforeId = rows[rows.length - 1]?.id;
          embedded[target] += rows.length;
          await options.onProgress?.({
            target,
            done: embedded[target],
            total: Math.max(stale[target], embedded[target]),
          });
          const current = await this.models.getActiveModel();
          if (current && current.id !== provider.modelId) {
            switched = true;
            break;
          }
        }
        if (switched) break;
      }
      if (!switched || round >= 3) return { model, embedded };
      this.options.logger?.info('active embedding model changed during re-embedding; continuing with the new one');
    }
  }

  /** (Re)computes one profile vector; clears it when there is no summary. Returns whether the user has one. */
  async embedProfile(userId: string, researchSummaryEn: string): Promise<{ hasVector: boolean; modelId?: number }> {
    const text = profileEmbeddingText(researchSummaryEn);
    if (!text) {
      await this.vectors.clearUserVector(userId);
      return { hasVector: false };
    }
    const provider = await this.active();
    const [vector] = await provider.embed([text]);
    if (!vector) throw new Error('the embedding provider returned no vector');
    await this.vectors.setUserVector(userId, provider.modelId, vector);
    return { hasVector: true, modelId: provider.modelId };
  }

  /** Papers that can be recommended: those with a vector of the active model. */
  async countRecommendable(): Promise<number> {
    const model = await this.activeModel();
    return (await this.vectors.countCurrent(model.id)).papers;
  }
}

function withModelId(provider: EmbeddingProvider, modelId: number): RegisteredEmbeddingProvider {
  return { model: provider.model, modelId, embed: (texts) => provider.embed(texts) };
}

export function describeModel(row: Pick<EmbeddingModelRow, 'provider' | 'name' | 'version' | 'dimension'>): string {
  return `${row.provider}/${row.name}@${row.version} (${row.dimension} dimensions)`;
}
