import type { AiServices } from '@radar/ai';
import type { PaperRepository, UserRepository, UserRow } from '@radar/db';
import type { RecommendationPipeline } from '@radar/recommend';
import {
  FOLLOWED_AUTHOR_LIMITS,
  type FollowedAuthorPaper,
  type PaperRecommendationQuery,
  type PaperRecommendationResponse,
  type SimilarityResponse,
} from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';
import { presentPaper } from '../../presenters/paper.presenter';
import { profileVectorOf } from '../../profile-vector';

const UNKNOWN_TIER_NOTE = '未收录分区的期刊论文（多为预印本）不会因分区筛选被排除';

/** Papers recommended by similarity to the research profile, and similarity of given papers or text. */
export class PaperRecommendationService {
  constructor(
    private readonly deps: {
      ai: AiServices;
      papers: PaperRepository;
      users: UserRepository;
      pipeline: RecommendationPipeline;
      logger: Logger;
    },
  ) {}

  /**
   * GET /api/auth/recommendations/papers/ (RecommendationPipeline.recommendPapers). Ranked by the learned
   * profile when the reader's signals made one (else the research summary), without the papers they
   * judged (reader-eligibility.ts); each with the reason it is recommended. A keyword's negative terms (排除词)
   * do not filter recommendations (the alert dialog promises they only keep papers out of that
   * keyword's alerts); they only keep a paper from being said to match that keyword. Above them, the
   * section 关注的作者: papers by followed authors published in the same window (not filtered by tier
   * or similarity: the reader asked for this person's work), without those the reader judged,
   * newest first; the pipeline reads it within the request's round trips.
   */
  async recommend(user: UserRow, query: PaperRecommendationQuery): Promise<PaperRecommendationResponse> {
    const result = await this.deps.pipeline.recommendPapers(user, {
      ...query,
      followedAuthorPapers: FOLLOWED_AUTHOR_LIMITS.sectionPapers,
    });
    const recommendations = result.items.map((entry) => ({
      ...presentPaper(entry.view),
      similarity_score: entry.similarity,
      reason: entry.reason ?? { kind: 'profile' as const, text: '与你的研究方向整体相近', terms: [] },
      // Beyond the spec, only when present: the interest it serves (several interests) and the LLM's reason.
      ...(entry.interest ? { interest: entry.interest } : {}),
      ...(entry.rerankReason ? { rerank_reason: entry.rerankReason } : {}),
    }));
    const { byDate, byTier, byThreshold } = result.filteredOut;
    const present = (paper: (typeof result.followedAuthorPapers)[number]): FollowedAuthorPaper => ({
      ...presentPaper(paper.view),
      followed_authors: paper.authors.map((author) => ({
        id: String(author.followId),
        name: author.name,
        match: author.match,
        ...(author.evidence ? { evidence: author.evidence } : {}),
      })),
    });
    const followedAuthorPapers = result.followedAuthorPapers.map(present);
    const namesakes = result.followedAuthorNamesakes;
    return {
      success: true,
      recommendations,
      recommendations_count: recommendations.length,
      user_id: user.id,
      similarity_threshold: query.threshold,
      top_k: query.topK,
      excluded_jcr: query.excludedTiers,
      date_filter: query.dateFilter,
      published_since: result.publishedSince ?? null,
      filtered_out_count: byDate + byTier + byThreshold,
      filtered_out: { by_date: byDate, by_tier: byTier, by_threshold: byThreshold },
      unknown_tier_included: true,
      notes: query.excludedTiers.length ? [UNKNOWN_TIER_NOTE] : [],
      learning: result.learning,
      freshness: result.freshness,
      empty_explanation: result.emptyExplanation,
      followed_author_papers: followedAuthorPapers,
      ...(namesakes.count
        ? { followed_author_namesakes: { count: namesakes.count, papers: namesakes.papers.map(present) } }
        : {}),
      has_more: result.hasMore,
    };
  }

  /** GET /api/auth/recommendations/similarity/. */
  async similarity(
    user: UserRow,
    query: { ids?: string | undefined; text?: string | undefined },
  ): Promise<SimilarityResponse> {
    const { model, vector } = await profileVectorOf(this.deps, user);
    const base = { success: true as const, user_id: user.id, model_name: model.name };
    if (query.ids?.trim()) {
      const ids = [...new Set(query.ids.split(',').map((id) => Number(id.trim())))];
      const rows = await this.deps.papers.similarityOf(user.id, ids, model, vector);
      const found = new Set(rows.map((row) => row.id));
      return {
        ...base,
        results: rows.map((row) => ({ id: String(row.id), title: row.title, similarity_score: row.similarity })),
        not_found: ids.filter((id) => !found.has(id)).map(String),
        text_similarity: null,
      };
    }
    const provider = await this.deps.ai.embeddings.active().catch((error: Error) => {
      this.deps.logger.error({ err: error.message }, 'embedding provider unavailable');
      throw errors.unavailable('相似度服务暂时不可用，请稍后重试');
    });
    let textVector: number[] | undefined;
    try {
      [textVector] = await provider.embed([(query.text ?? '').trim()]);
    } catch (error) {
      this.deps.logger.error({ err: (error as Error).message }, 'text embedding failed');
      throw errors.unavailable('相似度服务暂时不可用，请稍后重试');
    }
    return { ...base, results: [], not_found: [], text_similarity: textVector ? cosine(textVector, vector) : null };
  }
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA && normB ? dot / Math.sqrt(normA * normB) : 0;
}
