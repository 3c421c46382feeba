import {
  API_PATHS,
  apiPath,
  type FollowAuthorResponse,
  type FollowedAuthor,
  type FollowedAuthorListResponse,
} from '@radar/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, getErrorMessage } from '@/lib/api-client';
import { RECOMMENDATION_QUERY_KEYS } from './learning';
import { usePublicConfig } from './public-config';

/*
 * Followed authors (beyond the spec): followed from the author list of any paper card, listed on /my,
 * and their new papers head /papers. Offered only when GET /api/config/ names `followed_authors`.
 */

const FOLLOWED_AUTHORS_QUERY_KEY = ['followed-authors'] as const;

/** GET /api/auth/followed-authors/. */
function getFollowedAuthors(options: { signal?: AbortSignal } = {}): Promise<FollowedAuthorListResponse> {
  return api.get<FollowedAuthorListResponse>(API_PATHS.followedAuthors, { signal: options.signal });
}

/** POST /api/auth/followed-authors/: author `authorIndex` (0 = first) of the paper. */
function followAuthor(paperId: string, authorIndex: number): Promise<FollowAuthorResponse> {
  return api.post<FollowAuthorResponse>(API_PATHS.followedAuthors, { paper_id: paperId, author_index: authorIndex });
}

/** DELETE /api/auth/followed-authors/{id}/. */
function unfollowAuthor(id: string): Promise<FollowedAuthorListResponse> {
  return api.delete<FollowedAuthorListResponse>(apiPath(API_PATHS.followedAuthor, { id }));
}

/** Whether the server keeps followed authors: false until /api/config/ says so. */
function useCanFollowAuthors(): boolean {
  return usePublicConfig().data?.features.includes('followed_authors') ?? false;
}

/** The reader's followed authors, loaded only when the server offers them. */
function useFollowedAuthors(enabled: boolean) {
  return useQuery({
    queryKey: FOLLOWED_AUTHORS_QUERY_KEY,
    queryFn: ({ signal }) => getFollowedAuthors({ signal }),
    enabled,
    staleTime: 60_000,
  });
}

/** A name as compared on the card: case, spacing and accents aside. */
const authorNameKey = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

const FOLLOW_NOTICES = {
  followed: (name: string) => `已关注 ${name}，TA 的新论文会出现在“论文推荐”顶部、关键词提醒邮件和推送与订阅中`,
  alreadyFollowed: (name: string) => `你已关注 ${name}`,
  unfollowed: (name: string) => `已取消关注 ${name}`,
} as const;

/**
 * Follow and unfollow, for paper cards and /my: after each change the list and the paper
 * recommendations (whose section 关注的作者 it changes) load again. `onNotice` gets the line for the
 * page's snackbar.
 */
export function useAuthorFollowing(onNotice: (message: string) => void) {
  const queryClient = useQueryClient();
  const canFollow = useCanFollowAuthors();
  const list = useFollowedAuthors(canFollow);
  const refresh = (answer: FollowedAuthorListResponse) => {
    queryClient.setQueryData(FOLLOWED_AUTHORS_QUERY_KEY, {
      success: true,
      followed_authors: answer.followed_authors,
      max_followed_authors: answer.max_followed_authors,
    });
    // Not awaited: the cards stay usable while /papers loads its section again.
    void queryClient.invalidateQueries({ queryKey: RECOMMENDATION_QUERY_KEYS.paper });
  };
  const follow = useMutation({
    mutationFn: ({ paperId, index }: { paperId: string; index: number; name: string }) => followAuthor(paperId, index),
    onSuccess: (answer, { name }) => {
      const isNew = !list.data?.followed_authors.some((author) => author.id === answer.followed.id);
      onNotice(isNew ? FOLLOW_NOTICES.followed(name) : FOLLOW_NOTICES.alreadyFollowed(name));
      refresh(answer);
    },
    onError: (error) => onNotice(getErrorMessage(error)),
  });
  const unfollow = useMutation({
    mutationFn: (author: Pick<FollowedAuthor, 'id' | 'name'>) => unfollowAuthor(author.id),
    onSuccess: (answer, author) => {
      onNotice(FOLLOW_NOTICES.unfollowed(author.name));
      refresh(answer);
    },
    onError: (error) => onNotice(getErrorMessage(error)),
  });
  const followed = list.data?.followed_authors ?? [];
  return {
    canFollow,
    followed,
    max: list.data?.max_followed_authors,
    isLoading: list.isLoading,
    isError: list.isError,
    isBusy: follow.isPending || unfollow.isPending,
    /** The follow of an author of that name, if any. */
    followOf: (name: string) => followed.find((author) => authorNameKey(author.name) === authorNameKey(name)),
    follow: (paperId: string, index: number, name: string) => follow.mutate({ paperId, index, name }),
    unfollow: (author: Pick<FollowedAuthor, 'id' | 'name'>) => unfollow.mutate(author),
  };
}
