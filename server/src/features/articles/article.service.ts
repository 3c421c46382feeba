import { englishSearchPhrases } from '@radar/ai';
import type { ArticleRepository, UserRow } from '@radar/db';
import {
  API_PATHS,
  type ArticleExportQuery,
  type ArticleFavoriteResponse,
  type ArticleLibraryExportQuery,
  type ArticleLibraryQuery,
  type ArticleLibraryResponse,
  type ArticleReadResponse,
  type ArticleSaveResponse,
  type ArticleSearchQuery,
  type ArticleSearchResponse,
  type ArticleShareResponse,
} from '@radar/shared';
import { errors, parseRowId } from '../../errors';
import { doiLink, presentPaper } from '../../presenters/paper.presenter';
import { type CitationFile, writeCitationFile } from './citation-files';
import { toCitationItems } from './paper-citation';

/** The paper id in a path; anything that cannot be one is a paper that does not exist (404). */
const parsePaperId = (raw: string): number => parseRowId(raw, '论文不存在');

const paperNotFound = () => errors.notFound('论文不存在');

/** A library export holds at most this many papers, most recently marked first (one query, one file in memory). */
const LIBRARY_EXPORT_MAX_PAPERS = 5000;

/** The file name's word for each library list: radar-favorites-2026-11-27.bib. */
const LIBRARY_FILE_NAMES = { all: 'library', favorited: 'favorites', saved: 'saved' } as const;

/** A citation file with the name it is downloaded under. */
export interface NamedCitationFile extends CitationFile {
  fileName: string;
}

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
    /** The day in export file names: today in the deployment's time zone. */
    private readonly fileDate: { now?: () => Date; timeZone?: string } = {},
  ) {}

  /** GET /articles/{id}/export/: one paper (a duplicate's id gives its card's paper) as a citation file. */
  async exportPaper(user: UserRow, rawId: string, query: ArticleExportQuery): Promise<NamedCitationFile> {
    const paper = await this.articles.findView(user.id, parsePaperId(rawId));
    if (!paper) throw paperNotFound();
    const file = writeCitationFile(toCitationItems([paper]), query.format);
    return { ...file, fileName: `radar-paper-${paper.id}.${file.extension}` };
  }

  /**
   * GET /articles/library/export/: the caller's favourites, saved papers or both, most recently marked
   * first, as one citation file; an empty list gives an empty file of the format.
   */
  async exportLibrary(user: UserRow, query: ArticleLibraryExportQuery): Promise<NamedCitationFile> {
    const { papers } = await this.articles.library({
      userId: user.id,
      list: query.list,
      limit: LIBRARY_EXPORT_MAX_PAPERS,
      offset: 0,
    });
    const file = writeCitationFile(toCitationItems(papers), query.format);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: this.fileDate.timeZone ?? 'UTC' }).format(
      this.fileDate.now?.() ?? new Date(),
    );
    return { ...file, fileName: `radar-${LIBRARY_FILE_NAMES[query.list]}-${day}.${file.extension}` };
  }

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
