import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { parseVectorText } from '../schema/columns';
import type { EmbeddingModelRow } from './embedding.repository';
import {
  type FollowedAuthorCandidate,
  type FollowedAuthorCandidateOptions,
  type FollowedAuthorRow,
  followedAuthorCandidatesStatement,
  followsQuery,
  toFollowedAuthorCandidates,
  toFollows,
} from './followed-author.repository';
import { type RankingInterest, rankingInterestsQuery, toRankingInterests } from './interest.repository';
import { bestMatchingKeyword, compiledKeywords } from './keyword-match';
import {
  type ClosestLiked,
  closestLikedQuery,
  type LearningState,
  type LearningStateRow,
  learningStateQuery,
  toClosestLiked,
  toLearningState,
} from './learning.repository';
import { runInOneTrip, runNamed } from './one-trip';
import type { PaperView } from './paper.repository';
import { toDate } from './raw-values';
import { type ItemKind, type JudgedItemOptions, judgedItemsQuery } from './reader-eligibility';

/*
 * The reads of one recommendation request that are not the candidate search itself, each a single
 * round trip: what the request starts from (context, with the reader's followed authors), and the cards
 * of the ranked papers with the liked paper closest to each, and of the section 关注的作者 (cards). The
 * search, the freshness line and the followed authors' candidates travel together in a second trip
 * (PaperRepository.recommendWith, NewsSearchRepository.nearestWith).
 */

/** Everything a recommendation starts from, read in one statement. */
export interface RecommendationContext {
  /** The row marked active (the caller checks it against the configuration); undefined when none. */
  activeModel: EmbeddingModelRow | undefined;
  /** undefined for an unknown user. */
  learning: LearningState | undefined;
  /** The learned profile of the active model, if there is one. */
  learnedVector: number[] | null;
  /**
   * Items of this kind never to recommend to the user (reader-eligibility.ts, judgedItemsQuery): marked
   * 不感兴趣 or 👎, 👍 unless the request keeps them, and for papers the reader's own works.
   */
  excludedIds: number[];
  /**
   * The reader's interests besides the research summary that have a vector of the active model, and the
   * summary's own quota when the reader set it.
   */
  interests: { summaryQuota: number | undefined; others: RankingInterest[] };
  /** The reader's classifier of the active model (issue 23), if the worker fitted one. */
  classifier: { weights: number[]; bias: number; signalCount: number } | null;
  /** The reader's followed authors, oldest first (papers only; none for news). */
  follows: FollowedAuthorRow[];
}

export class RecommendationRepository {
  constructor(private readonly db: Database) {}

  async context(userId: string, kind: ItemKind, options: JudgedItemOptions = {}): Promise<RecommendationContext> {
    // The reader's judged items and own works (reader-eligibility.ts), read in the context statement so
    // leaving them out costs no round trip of its own.
    const excluded = judgedItemsQuery(kind, userId, options);
    // Named: its planning cost four times its run (runNamed), and every request sends it.
    const rows = await runNamed<{
      model: Record<string, unknown> | string | null;
      learning: LearningStateRow | string | null;
      learned: string | null;
      excluded: string;
      interests: unknown;
      classifier: { weights: string; bias: number; signalCount: number } | string | null;
      follows: unknown;
    }>(
      this.db,
      'recommendation-context',
      sql`WITH active AS (SELECT * FROM radar.embedding_models WHERE is_active)
          SELECT
            (SELECT json_build_object('id', a.id, 'provider', a.provider, 'name', a.name, 'version', a.version,
               'dimension', a.dimension, 'isActive', a.is_active, 'createdAt', a.created_at) FROM active a) AS model,
            (SELECT row_to_json(st) FROM (${learningStateQuery(userId)}) st) AS learning,
            (SELECT u.learned_embedding::text FROM radar.users u
              WHERE u.id = ${userId}::uuid AND u.learned_embedding IS NOT NULL
                AND u.learned_embedding_model_id = (SELECT id FROM active)) AS learned,
            (SELECT coalesce(string_agg(d.id::text, ','), '') FROM (${excluded}) d) AS excluded,
            ${rankingInterestsQuery(userId)} AS interests,
            (SELECT json_build_object('weights', c.weights::text, 'bias', c.bias, 'signalCount', c.signal_count)
              FROM radar.reader_classifiers c
              WHERE c.user_id = ${userId}::uuid AND c.embedding_model_id = (SELECT id FROM active)) AS classifier,
            ${kind === 'paper' ? followsQuery(userId) : sql`'[]'::json`} AS follows`,
    );
    const row = rows[0];
    const json = <T>(value: T | string | null | undefined): T | null =>
      value === null || value === undefined ? null : typeof value === 'string' ? (JSON.parse(value) as T) : value;
    const model = json(row?.model);
    const learning = json(row?.learning);
    const learned = row?.learned ? parseVectorText(row.learned) : null;
    const classifier = json(row?.classifier);
    const activeModel = model
      ? ({
          ...model,
          id: Number(model.id),
          dimension: Number(model.dimension),
          createdAt: toDate(model.createdAt),
        } as EmbeddingModelRow)
      : undefined;
    return {
      activeModel,
      learning: learning ? toLearningState(learning) : undefined,
      learnedVector: learned && activeModel && learned.length === activeModel.dimension ? learned : null,
      excludedIds: row?.excluded ? row.excluded.split(',').map(Number) : [],
      interests: toRankingInterests(row?.interests, activeModel?.dimension),
      classifier: classifier
        ? {
            weights: parseVectorText(classifier.weights),
            bias: Number(classifier.bias),
            signalCount: Number(classifier.signalCount),
          }
        : null,
      follows: toFollows(row?.follows),
    };
  }

  /**
   * The statement of the followed authors' candidate papers (FollowedAuthorRepository.findCandidates), to
   * send with the candidate search; readFollowedAuthorCandidates() reads its rows. Undefined: no key.
   */
  followedAuthorCandidatesStatement(
    userId: string,
    follows: readonly Pick<FollowedAuthorRow, 'nameKey' | 'orcid' | 'openalexId'>[],
    options: FollowedAuthorCandidateOptions,
  ): SQL | undefined {
    return followedAuthorCandidatesStatement(userId, follows, options);
  }

  readFollowedAuthorCandidates(rows: readonly Record<string, unknown>[] | undefined): FollowedAuthorCandidate[] {
    return toFollowedAuthorCandidates(rows ?? []);
  }

  /**
   * The papers as `userId` sees them, in the order of `ids` (unknown ids left out), the keyword of
   * theirs each matches best (bestMatchingKeyword: the alerts' rule), and, when `closestLikedOf` names
   * the model, the liked paper closest to each (LearningRepository.closestLiked); and the papers of
   * `sectionIds` (the section 关注的作者) as `userId` sees them, in that order: one round trip.
   */
  async cards(
    ids: readonly number[],
    userId: string,
    closestLikedOf?: { modelId: number },
    sectionIds: readonly number[] = [],
  ): Promise<{
    views: PaperView[];
    matchedKeywords: Map<number, string>;
    closestLiked: Map<number, ClosestLiked>;
    sectionViews: PaperView[];
  }> {
    if (ids.length === 0 && sectionIds.length === 0) {
      return { views: [], matchedKeywords: new Map(), closestLiked: new Map(), sectionViews: [] };
    }
    // One statement for both lists (a paper in both is read once).
    const list = [...new Set([...ids, ...sectionIds])].map((id) => Math.trunc(id)).join(',');
    const cardsStatement = sql`WITH keywords AS MATERIALIZED (${compiledKeywords(sql`k.user_id = ${userId}::uuid`)})
          SELECT p.id, p.title, p.authors, p.abstract, p.journal_name AS "journalName", p.jcr_tier AS "jcrTier",
            (SELECT j.tier_system FROM radar.journals j WHERE j.id = p.journal_id AND p.jcr_tier IS NOT NULL) AS "jcrSystem",
            (SELECT j.tier_year FROM radar.journals j WHERE j.id = p.journal_id AND p.jcr_tier IS NOT NULL) AS "jcrYear",
            p.doi, p.url, p.pdf_url AS "pdfUrl",
            coalesce(p.source_ids ->> 'preprintUrl', 'https://arxiv.org/abs/' || p.arxiv_id,
              'https://doi.org/' || (p.source_ids ->> 'preprintDoi')) AS "preprintUrl",
            p.published_at::text AS "publishedAt", p.keywords, p.llm_summary AS "llmSummary",
            p.created_at AS "createdAt", p.updated_at AS "updatedAt",
            coalesce(s.is_favorited, false) AS "isFavorited", coalesce(s.is_saved, false) AS "isSaved",
            CASE WHEN p.journal_version_at >= s.created_at AND (s.is_favorited OR s.is_saved)
              THEN p.journal_version_at END AS "journalVersionArrivedAt",
            s.rating::int AS rating,
            ${bestMatchingKeyword(sql`p.search_vector`, sql`keywords`)} AS "matchedKeyword"
          FROM radar.papers p
          LEFT JOIN radar.user_article_states s ON s.paper_id = p.id AND s.user_id = ${userId}::uuid
          WHERE p.id = ANY(string_to_array(${list}, ',')::bigint[])`;
    // Alone (a reader with nothing liked yet), the statement is named: its planning costs several times
    // its run (runNamed). With the closest liked papers both go in one message, planned each time.
    const [viewRows = [], likedRows = []] =
      closestLikedOf && ids.length
        ? await runInOneTrip(this.db, [cardsStatement, closestLikedQuery(userId, closestLikedOf.modelId, ids)])
        : [await runNamed(this.db, 'recommendation-cards', cardsStatement)];
    const matchedKeywords = new Map<number, string>();
    const byId = new Map(
      viewRows.map(({ matchedKeyword, ...row }) => {
        if (typeof matchedKeyword === 'string') matchedKeywords.set(Number(row.id), matchedKeyword);
        return [
          Number(row.id),
          {
            ...row,
            id: Number(row.id),
            jcrTier: row.jcrTier === null ? null : Number(row.jcrTier),
            jcrYear: row.jcrYear === null ? null : Number(row.jcrYear),
            createdAt: toDate(row.createdAt),
            updatedAt: toDate(row.updatedAt),
            journalVersionArrivedAt: row.journalVersionArrivedAt ? toDate(row.journalVersionArrivedAt) : null,
          } as unknown as PaperView,
        ];
      }),
    );
    return {
      views: ids.flatMap((id) => byId.get(id) ?? []),
      sectionViews: sectionIds.flatMap((id) => byId.get(id) ?? []),
      matchedKeywords,
      closestLiked: toClosestLiked(
        likedRows as { candidate: unknown; id: unknown; title: unknown; signal: unknown; distance: unknown }[],
      ),
    };
  }
}
