import type { DeliveredItemKind, UserRow } from '@radar/db';
import {
  type DateFilterLabel,
  type DeliveryNewsFilters,
  type DeliveryPaperFilters,
  followedAuthorReasonText,
  NEWS_RECOMMENDATION_DEFAULTS,
  PAPER_RECOMMENDATION_DEFAULTS,
  RECOMMENDATION_TOP_K,
} from '@radar/shared';
import type { Logger } from 'pino';
import type { RecommendationPipeline } from './pipeline';

/**
 * The top recommendations a digest, the Atom feed and a webhook push carry: papers and news ranked by
 * the same pipeline as /papers and /news (learning, dismissed items, reasons), with the reader's saved
 * filters (the spec's defaults without them), and first among the papers those by authors the reader
 * follows, as /papers shows them above its list. Delivery channels then leave out what they delivered
 * before.
 */

export interface DigestItem {
  kind: DeliveredItemKind;
  id: number;
  title: string;
  /** The item's page ('' when it has none we can link). */
  url: string;
  /** The reason sentence, as on the card. */
  reason: string;
  /** The paper's LLM summary (in LLM_SUMMARY_LANGUAGE, Chinese by default); null for news and papers without one. */
  summary: string | null;
  /** Journal (papers) or institute (news); '' when unknown. */
  source: string;
  /** When the item was published (ISO date or instant), null when unknown. */
  publishedAt: string | null;
  /** When it was stored: the feed's `updated` of the entry. */
  storedAt: Date;
  /** Similarity to the reader's profile; null for a followed author's paper (listed for its author). */
  similarity: number | null;
}

/**
 * A favourited or saved preprint whose journal version arrived since the previous digest (issue 24,
 * "preprint published"); its provider comes from the article repository at merge.
 */
export interface PublishedPreprintNotice {
  paperId: number;
  title: string;
  journalName: string;
  url: string;
}

/** Lists a reader's published-preprint notices since an instant; the default lists none. */
export type PublishedPreprintsProvider = (userId: string, since: Date | null) => Promise<PublishedPreprintNotice[]>;
export const noPublishedPreprints: PublishedPreprintsProvider = async () => [];

/** How many candidates each list asks the pipeline for, before a channel drops what it delivered. */
const CANDIDATES = RECOMMENDATION_TOP_K.max;
/**
 * Followed authors' papers ahead of the recommendations, at most: half of a digest's papers
 * (DELIVERY_LIMITS.digestPapers), so a prolific author never pushes the recommendations out.
 */
const DIGEST_FOLLOWED_AUTHOR_PAPERS = 5;

const paperLink = (url: string, doi: string | null) => url || (doi ? `https://doi.org/${doi}` : '');
const isWebLink = (link: string) => /^https?:\/\//i.test(link);

type PaperCardRow = Awaited<ReturnType<RecommendationPipeline['recommendPapers']>>['items'][number]['view'];

/** A paper's fields in a digest, whatever brought it. */
function paperItem(view: PaperCardRow): Omit<DigestItem, 'reason' | 'similarity'> {
  const link = paperLink(view.url, view.doi);
  return {
    kind: 'paper',
    id: view.id,
    title: view.title.replace(/\s+/g, ' ').trim(),
    url: isWebLink(link) ? link : '',
    summary: view.llmSummary?.trim() || null,
    source: view.journalName,
    publishedAt: view.publishedAt,
    storedAt: view.createdAt,
  };
}

export interface DigestFilters {
  papers: DeliveryPaperFilters | null;
  news: DeliveryNewsFilters | null;
}

/**
 * The ranked papers and news for a reader (papers first, each list in the pipeline's order). A reader
 * without a research profile (or its vector) gets empty lists, logged, never an error: one reader's
 * missing profile must not stop a run over all readers.
 */
export async function collectDigestItems(
  deps: { pipeline: RecommendationPipeline; logger?: Logger | undefined },
  user: UserRow,
  filters: DigestFilters,
): Promise<{ papers: DigestItem[]; news: DigestItem[] }> {
  const paperFilters = filters.papers;
  const newsFilters = filters.news;
  const papers = await deps.pipeline
    .recommendPapers(user, {
      topK: CANDIDATES,
      threshold: paperFilters?.threshold ?? PAPER_RECOMMENDATION_DEFAULTS.threshold,
      excludedTiers: paperFilters?.excluded_jcr ?? [...PAPER_RECOMMENDATION_DEFAULTS.excludedJcr],
      dateFilter: paperFilters?.date_filter ?? ([...PAPER_RECOMMENDATION_DEFAULTS.dateFilter] as DateFilterLabel[]),
      // Only looked up for a reader who follows someone (the pipeline's first statement says so).
      followedAuthorPapers: DIGEST_FOLLOWED_AUTHOR_PAPERS,
    })
    .then((result) => {
      const followed = result.followedAuthorPapers.map(
        (paper): DigestItem => ({
          ...paperItem(paper.view),
          reason: followedAuthorReasonText(paper.authors),
          similarity: null,
        }),
      );
      const listed = new Set(followed.map((item) => item.id));
      const recommended = result.items
        .filter((entry) => !listed.has(entry.id))
        .map(
          (entry): DigestItem => ({
            ...paperItem(entry.view),
            reason: entry.reason?.text ?? '与你的研究方向整体相近',
            similarity: entry.similarity,
          }),
        );
      return [...followed, ...recommended];
    })
    .catch((error: Error) => {
      deps.logger?.info({ userId: user.id, err: error.message }, 'no paper recommendations for delivery');
      return [];
    });
  const news = await deps.pipeline
    .recommendNews(user, {
      topK: CANDIDATES,
      threshold: newsFilters?.threshold ?? NEWS_RECOMMENDATION_DEFAULTS.threshold,
      dateFilter: newsFilters?.date_filter ?? ([...NEWS_RECOMMENDATION_DEFAULTS.dateFilter] as DateFilterLabel[]),
      page: 1,
      pageSize: CANDIDATES,
    })
    .then((result) => {
      const similarity = new Map(result.ranked.map((item) => [item.id, item.similarity]));
      const order = new Map(result.ranked.map((item, index) => [item.id, index]));
      return [...result.page.views]
        .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
        .map(
          (view): DigestItem => ({
            kind: 'news',
            id: view.id,
            title: view.title.replace(/\s+/g, ' ').trim(),
            url: isWebLink(view.url) ? view.url : '',
            reason: result.page.reasons.get(view.id)?.text ?? '与你的研究方向整体相近',
            summary: null,
            source: view.instituteName,
            publishedAt: (view.publishDate ?? view.crawlDate).toISOString(),
            storedAt: view.crawlDate,
            similarity: similarity.get(view.id) ?? 0,
          }),
        );
    })
    .catch((error: Error) => {
      deps.logger?.info({ userId: user.id, err: error.message }, 'no news recommendations for delivery');
      return [];
    });
  return { papers, news };
}
