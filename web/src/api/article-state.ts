import {
  API_PATHS,
  type ArticleFavoriteResponse,
  type ArticleReadResponse,
  type ArticleSaveResponse,
  type ArticleShareResponse,
  apiPath,
} from '@radar/shared';
import { api } from '@/lib/api-client';

/*
 * The per-user state of a paper (favourite, read later, share, reading progress), changed from every
 * screen that shows paper cards (recommendations, search, library), hence here and not in a feature.
 */

/** POST /articles/{id}/favorite/: toggles the favourite; answers the new state. */
export function toggleFavorite(id: string): Promise<ArticleFavoriteResponse> {
  return api.post<ArticleFavoriteResponse>(apiPath(API_PATHS.articleFavorite, { id }));
}

/** POST /articles/{id}/save/: toggles "read later"; answers the new state. */
export function toggleSave(id: string): Promise<ArticleSaveResponse> {
  return api.post<ArticleSaveResponse>(apiPath(API_PATHS.articleSave, { id }));
}

/** POST /articles/{id}/share/: counts the share and answers the link to pass on. */
export function shareArticle(id: string): Promise<ArticleShareResponse> {
  return api.post<ArticleShareResponse>(apiPath(API_PATHS.articleShare, { id }));
}

/** POST /articles/{id}/read/ `{ progress }` (0-100): the server keeps the furthest progress and answers it. */
export function recordRead(id: string, progress: number): Promise<ArticleReadResponse> {
  return api.post<ArticleReadResponse>(apiPath(API_PATHS.articleRead, { id }), { progress });
}

/**
 * Every article query (search pages, library pages) starts with this key. The library lists which
 * papers are favourited or saved, so any toggle makes it stale.
 */
export const ARTICLES_QUERY_KEY = ['articles'] as const;
export const LIBRARY_QUERY_KEY = [...ARTICLES_QUERY_KEY, 'library'] as const;
