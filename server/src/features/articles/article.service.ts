import { englishSearchPhrases } from '@radar/ai';
import type { ArticleRepository, UserRow } from '@radar/db';
import {
  API_PATHS,
  type ArticleFavoriteResponse,
  type ArticleLibraryQuery,
  type ArticleLibraryResponse,
  type ArticleReadResponse,
  type ArticleSaveResponse,
  type ArticleSearchQuery,
  type ArticleSearchResponse,
  type ArticleShareResponse,
} from '@radar/shared';
import { errors } from '../../errors';
import { doiLink, presentPaper } from '../../presenters/paper.presenter';

/** Paper ids are positive bigints; beyond 15 digits none exists yet and JS numbers stay exact. */
const PAPER_ID = /^[1-9]\d{0,14}$/;

/** The paper id in a path; anything that cannot be one is a paper that does not exist (404). */
function parsePaperId(raw: string): number {
  if (!PAPER_ID.test(raw)) throw errors.notFound('论文不存在');
  return Number(raw);
}

const paperNotFound = () => errors.notFound('论文不存在');

/** The link of another page of the same list: path and query, as the client requests it. */
const pageLink = (path: string, params: Record<string, string>, page: number, pageSize: number) =>
  `${path}?${new URLSearchParams({ ...params, page: String(page), page_size: String(pageSize) })}`;

/** `next` and `previous` of a page: past the last page, `previous` points at the last one. */
function pageLinks(path: string, params: Record<string, string>, page: number, pageSize: number, total: number) {
  const lastPage = Math.ceil(total / pageSize);
  return {
    next: page < lastPage ? pageLink(path, params, page + 1, pageSize) : null,
    previous: page > 1 && lastPage > 0 ? pageLink(path, params, Math.min(page - 1, lastPage), pageSize) : null,
  };
}

/** Search over papers and the signed-in user's own state of a paper (favourite, saved, shares, reading). */
export class ArticleService {
  constructor(
    private readonly articles: ArticleRepository,
    /** Favourites, saves and reading progress are learning signals: the learned profile is recomputed. */
    private readonly onSignalChanged: (userId: string) => Promise<void> = async () => {},
  ) {}

  /**
   * Every keyword must match; a Chinese keyword matches as itself or as its English glosses
   * (englishSearchPhrases: the dictionary loads on the first Chinese search of the process).
   * A page past the last one is not an error: it comes back empty with `next` null and `previous` on
   * the last page (the web app then asks for page 1 itself).
   */
  async search(user: UserRow, query: ArticleSearchQuery): Promise<ArticleSearchResponse> {
    const { page, pageSize } = query;
    const { total, papers } = await this.articles.search({
      keywords: query.keywords,
      // A Chinese keyword also finds English papers through the offline glossing (图神经网络 -> graph neural network).
      english: englishSearchPhrases,
      userId: user.id,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return {
      results: papers.map(presentPaper),
      count: total,
      ...pageLinks(API_PATHS.articleSearch, { q: query.q }, page, pageSize, total),
    };
  }

  /** GET /articles/library/: the caller's favourited and saved papers. */
  async library(user: UserRow, query: ArticleLibraryQuery): Promise<ArticleLibraryResponse> {
    const { page, pageSize, list } = query;
    const { total, papers } = await this.articles.library({
      userId: user.id,
      list,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return {
      results: papers.map((paper) => ({
        ...presentPaper(paper),
        read_progress: paper.readProgress,
        marked_at: paper.markedAt.toISOString(),
      })),
      count: total,
      ...pageLinks(API_PATHS.articleLibrary, { list }, page, pageSize, total),
    };
  }

  async toggleFavorite(user: UserRow, rawId: string): Promise<ArticleFavoriteResponse> {
    const id = parsePaperId(rawId);
    const isFavorited = await this.articles.toggleFavorite(user.id, id);
    if (isFavorited === undefined) throw paperNotFound();
    await this.onSignalChanged(user.id);
    return { success: true, id: String(id), is_favorited: isFavorited };
  }

  async toggleSaved(user: UserRow, rawId: string): Promise<ArticleSaveResponse> {
    const id = parsePaperId(rawId);
    const isSaved = await this.articles.toggleSaved(user.id, id);
    if (isSaved === undefined) throw paperNotFound();
    await this.onSignalChanged(user.id);
    return { success: true, id: String(id), is_saved: isSaved };
  }

  /** The link that opens the paper: the same `url` the Paper shows (its page, else its DOI), else its PDF. */
  async share(user: UserRow, rawId: string): Promise<ArticleShareResponse> {
    const id = parsePaperId(rawId);
    const shared = await this.articles.recordShare(user.id, id);
    if (!shared) throw paperNotFound();
    const url = shared.url || (shared.doi ? doiLink(shared.doi) : shared.pdfUrl) || null;
    return { success: true, id: String(id), url, share_count: shared.shareCount };
  }

  async recordRead(user: UserRow, rawId: string, progress: number): Promise<ArticleReadResponse> {
    const id = parsePaperId(rawId);
    const furthest = await this.articles.recordReadProgress(user.id, id, progress);
    if (furthest === undefined) throw paperNotFound();
    await this.onSignalChanged(user.id);
    return { success: true, id: String(id), progress: furthest };
  }
}
