import type OpenAI from 'openai';
import { AiProviderError } from '../ai-errors';
import { normalizeVector } from '../embedding-text';
import type { EmbeddingModelIdentity, EmbeddingProvider } from '../providers';
import { callOpenAi, createOpenAiClient, type OpenAiEndpointOptions } from './openai-client';

export interface OpenAiEmbeddingsOptions extends OpenAiEndpointOptions {
  model: string;
  /**
   * Expected vector length. When set it is also sent as the `dimensions` parameter (OpenAI's
   * text-embedding-3 models shorten their output to it); when unset it is learnt from one request.
   */
  dimension?: number | undefined;
  batchSize?: number;
  /** Declared multilingual (EMBEDDING_MULTILINGUAL): Chinese is embedded as written, a different vector space. */
  multilingual?: boolean | undefined;
}

export const OPENAI_COMPATIBLE_PROVIDER = 'openai-compatible';

export const MULTILINGUAL_VERSION_SUFFIX = '-multilingual';

/**
 * Identity of a remote model: a different output dimension is a different vector space, so a different
 * version; so is declaring it multilingual, since Chinese items are then embedded from other texts.
 */
function remoteEmbeddingIdentity(model: string, dimension: number, multilingual = false): EmbeddingModelIdentity {
  const version = `d${dimension}${multilingual ? MULTILINGUAL_VERSION_SUFFIX : ''}`;
  return { provider: OPENAI_COMPATIBLE_PROVIDER, name: model, version, dimension };
}

export class OpenAiEmbeddingProvider implements EmbeddingProvider {
  readonly model: EmbeddingModelIdentity;

  private constructor(
    private readonly client: OpenAI,
    private readonly options: OpenAiEmbeddingsOptions,
    dimension: number,
  ) {
    this.model = remoteEmbeddingIdentity(options.model, dimension, options.multilingual ?? false);
  }

  /** Asks the endpoint once for the dimension when it is not configured. */
  static async create(options: OpenAiEmbeddingsOptions): Promise<OpenAiEmbeddingProvider> {
    const client = createOpenAiClient(options);
    if (options.dimension) return new OpenAiEmbeddingProvider(client, options, options.dimension);
    const [probe] = await requestEmbeddings(client, options, ['dimension probe']);
    if (!probe?.length) throw new AiProviderError('invalid-output', `${options.model} returned an empty embedding`);
    return new OpenAiEmbeddingProvider(client, { ...options }, probe.length);
  }

  async embed(texts: string[]): Promise<number[][]> {
    const batchSize = this.options.batchSize ?? 64;
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      const batch = texts.slice(start, start + batchSize);
      const result = await requestEmbeddings(this.client, this.options, batch);
      for (const vector of result) {
        if (vector.length !== this.model.dimension) {
          throw new AiProviderError(
            'invalid-output',
            `${this.model.name} returned ${vector.length} dimensions, expected ${this.model.dimension} (EMBEDDING_DIM)`,
          );
        }
        vectors.push(normalizeVector(vector));
      }
    }
    return vectors;
  }
}

async function requestEmbeddings(client: OpenAI, options: OpenAiEmbeddingsOptions, texts: string[]) {
  // The API refuses empty strings; an empty text gets a placeholder (such rows should not exist).
  const input = texts.map((text) => (text.trim() === '' ? '(empty)' : text));
  const response = await callOpenAi(`embeddings (${options.model})`, () =>
    client.embeddings.create({
      model: options.model,
      input,
      encoding_format: 'float',
      ...(options.dimension ? { dimensions: options.dimension } : {}),
    }),
  );
  const data = [...(response.data ?? [])].sort((a, b) => a.index - b.index);
  if (data.length !== texts.length || data.some((item) => !Array.isArray(item.embedding))) {
    throw new AiProviderError(
      'invalid-output',
      `${options.model} returned ${data.length} embeddings for ${texts.length} texts`,
    );
  }
  return data.map((item) => item.embedding as number[]);
}
