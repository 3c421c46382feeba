import type { AiRepositories } from '@radar/db';
import type { AppConfig } from '@radar/shared/server';
import type { Logger } from 'pino';
import { EmbeddingModels } from './embedding-models';
import { LlmReranker } from './llm-rerank';
import { OpenAiChatModel } from './openai/openai-chat.adapter';
import type { LanguageModel } from './providers';
import {
  LlmResearchProfileExtractor,
  OfflineResearchProfileExtractor,
  type ResearchProfileExtractor,
} from './research-profile';

/**
 * The one place that picks AI providers from configuration.
 * - Language model: an OpenAI-compatible chat endpoint when LLM_MODEL is set, otherwise none (callers
 *   fall back: research profiles use the offline rules).
 * - Embeddings: an OpenAI-compatible endpoint when EMBEDDING_MODEL is set, otherwise the built-in
 *   embedder (corpus-fitted tf-idf + LSA, hashing before there is a corpus). The active model and its
 *   version are recorded in the database and shared by all processes.
 */

export { isAiProviderError } from './ai-errors';
export { termCounts } from './builtin/text-features';
export { CrossLingualTexts } from './cross-lingual-texts';
export {
  describeModel,
  EmbeddingModels,
  FIT_SAMPLE_SIZE,
  type ImportPreparation,
  type NewPaperVectors,
  type ReembedProgress,
} from './embedding-models';
export { documentEmbeddingText, isChineseText, profileEmbeddingText } from './embedding-text';
export { signalsOfSummary } from './learning/interest-attribution';
export { learnedProfileVector } from './learning/profile-learning';
export {
  CLASSIFIER_MIN_SIGNALS,
  classifierScoreFromProduct,
  fitReaderClassifier,
  RANDOM_NEGATIVE_WEIGHT,
  RANDOM_NEGATIVES_MIN,
  RANDOM_NEGATIVES_PER_SIGNAL,
  signalWeight,
} from './learning/reader-classifier';
export { englishSearchPhrases, followedKeywordEnglish } from './offline/chinese-gloss';
export type { EmbeddingProvider, LanguageModel } from './providers';
export * from './reasons';
export { type ResearchProfileExtractor, replaceAtForms } from './research-profile';
export * from './research-task';
export { embedStaleRows } from './stale-vectors';

export function createLanguageModel(config: Pick<AppConfig, 'llm'>): LanguageModel | undefined {
  const { llm } = config;
  if (!llm.model) return undefined;
  return new OpenAiChatModel({
    model: llm.model,
    baseUrl: llm.baseUrl,
    apiKey: llm.apiKey,
    timeoutMs: llm.timeoutMs,
    maxRetries: llm.maxRetries,
    jsonMode: llm.jsonMode,
  });
}

function createResearchProfileExtractor(languageModel: LanguageModel | undefined): ResearchProfileExtractor {
  return languageModel ? new LlmResearchProfileExtractor(languageModel) : new OfflineResearchProfileExtractor();
}

// One manager per repositories bundle (the composition root builds one per process), so fitted models
// are loaded once per process.
const embeddingModelsByRepositories = new WeakMap<AiRepositories, EmbeddingModels>();

/** `repositories`: createAiRepositories (@radar/db), called by the process's composition root. */
export function createEmbeddingModels(
  config: Pick<AppConfig, 'embedding' | 'llm'>,
  repositories: AiRepositories,
  logger?: Logger,
  languageModel: LanguageModel | undefined = createLanguageModel(config),
): EmbeddingModels {
  let models = embeddingModelsByRepositories.get(repositories);
  if (!models) {
    models = new EmbeddingModels({ config, repositories, logger, languageModel });
    embeddingModelsByRepositories.set(repositories, models);
  }
  return models;
}

/** The LLM rerank of paper recommendations when the operator turned it on (LLM_RERANK) and an LLM is configured. */
export function createLlmReranker(
  config: Pick<AppConfig, 'llm'>,
  languageModel: LanguageModel | undefined,
  logger?: Logger,
): LlmReranker | undefined {
  if (!config.llm.rerank || !languageModel) return undefined;
  return new LlmReranker({ languageModel, timeoutMs: config.llm.rerankTimeoutMs, logger });
}

export interface AiServices {
  languageModel: LanguageModel | undefined;
  researchExtractor: ResearchProfileExtractor;
  embeddings: EmbeddingModels;
}

/** `repositories`: createAiRepositories (@radar/db), called by the process's composition root. */
export function createAiServices(
  config: Pick<AppConfig, 'embedding' | 'llm'>,
  repositories: AiRepositories,
  logger?: Logger,
): AiServices {
  const languageModel = createLanguageModel(config);
  return {
    languageModel,
    researchExtractor: createResearchProfileExtractor(languageModel),
    embeddings: createEmbeddingModels(config, repositories, logger, languageModel),
  };
}
