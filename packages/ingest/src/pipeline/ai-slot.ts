import type { AiServices, CrossLingualTexts, EmbeddingProvider, LanguageModel } from '@radar/ai';

/** The AI providers content jobs use: vectors for new items, summaries for new papers. */
export interface ContentAiProviders {
  /** Asked per job, since the active embedding model can change (a refit activates a new version). */
  embedder?: (() => Promise<EmbeddingProvider | undefined>) | undefined;
  llm?: LanguageModel | undefined;
  /** What items are embedded from (English gists, glosses); left out: Chinese items are glossed offline. */
  texts?: CrossLingualTexts | undefined;
}

/**
 * The one place content jobs (content-embed, paper-summary) get their providers: the process's AI
 * services (packages/ai, chosen from configuration). Tests pass their own ContentAiProviders instead.
 */
export function contentAiProvidersFrom(ai: Pick<AiServices, 'embeddings' | 'languageModel'>): ContentAiProviders {
  return { embedder: () => ai.embeddings.active(), llm: ai.languageModel, texts: ai.embeddings.texts };
}
