import type { z } from 'zod';

/**
 * The two AI boundaries. Everything that needs a language model or embeddings depends on these
 * interfaces; each has exactly one adapter module per provider kind (OpenAI-compatible HTTP, and the
 * offline built-ins), chosen from config in one place.
 */

/** Identity stored with every vector (radar.embedding_models): vectors of different models never mix. */
export interface EmbeddingModelIdentity {
  /** 'builtin' or 'openai-compatible'. */
  provider: string;
  name: string;
  /** Changes when a corpus-fitted model is refitted, or when the remote model's output changes. */
  version: string;
  dimension: number;
}

export interface EmbeddingProvider {
  readonly model: EmbeddingModelIdentity;
  /** One unit-length vector per text, in order. Batches internally as the provider needs. */
  embed(texts: string[]): Promise<number[][]>;
}

export interface LlmGenerateOptions {
  system: string;
  user: string;
  maxTokens?: number;
  /** Aborts the call (job shutdown, request time-out). */
  signal?: AbortSignal;
}

export interface LanguageModel {
  /** For logs, caches (llm_summary_model) and the stats endpoint. */
  readonly model: string;
  generateText(options: LlmGenerateOptions): Promise<string>;
  /** Asks for JSON matching the schema; validates, retries a malformed answer once, then throws. */
  generateJson<T>(options: LlmGenerateOptions & { schema: z.ZodType<T>; schemaName: string }): Promise<T>;
}
