import type { NewsView } from '@radar/db';
import type { NewsItem, NewsPagination, RecommendationReason } from '@radar/shared';

/** The News item of the data model. `score` is the similarity the list was ranked by, if any. */
export function presentNewsItem(
  view: NewsView,
  options: { isRecommended: boolean; score: number | null; reason?: RecommendationReason | undefined },
): NewsItem {
  return {
    id: String(view.id),
    title: view.title,
    content: view.content,
    institute_name: view.instituteName,
    publish_date: view.publishDate?.toISOString() ?? null,
    crawl_date: view.crawlDate.toISOString(),
    url: view.url,
    is_recommended: options.isRecommended,
    recommendation_score: options.score,
    similarity_score: options.score,
    reason: options.reason ?? null,
    ...(view.rating === undefined ? {} : { rating: view.rating }),
  };
}

export function presentPagination(total: number, page: number, pageSize: number): NewsPagination {
  return {
    total_count: total,
    current_page: page,
    page_size: pageSize,
    total_pages: Math.ceil(total / pageSize),
  };
}
