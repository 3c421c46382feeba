import type { FollowedAuthorRepository, FollowedAuthorRow, UserRow } from '@radar/db';
import {
  FOLLOWED_AUTHOR_LIMITS,
  type FollowAuthorRequest,
  type FollowAuthorResponse,
  type FollowedAuthor,
  type FollowedAuthorListResponse,
} from '@radar/shared';
import { errors, parseRowId } from '../../errors';

const NOT_FOUND = '没有关注这位作者';

/**
 * The authors a reader follows (docs/decisions.md "Followed authors"). A reader follows an author from a
 * paper's author list: the paper and the author's place in it, so the follow carries whatever the
 * paper's source knew of that person (ORCID iD, OpenAlex id, affiliation) and never an id a client
 * typed. Their papers are found by @radar/recommend (findFollowedAuthorPapers).
 */
export class FollowedAuthorService {
  constructor(private readonly deps: { followedAuthors: FollowedAuthorRepository }) {}

  /** GET /api/auth/followed-authors/. */
  async list(user: UserRow): Promise<FollowedAuthorListResponse> {
    const rows = await this.deps.followedAuthors.list(user.id);
    return {
      success: true,
      followed_authors: rows.map(presentFollowedAuthor),
      max_followed_authors: FOLLOWED_AUTHOR_LIMITS.perReader,
    };
  }

  /** POST /api/auth/followed-authors/: `created` is false when the reader already followed them. */
  async follow(user: UserRow, body: FollowAuthorRequest): Promise<{ created: boolean; body: FollowAuthorResponse }> {
    const author = await this.deps.followedAuthors.paperAuthor(user.id, Number(body.paper_id), body.author_index);
    if (!author) {
      throw errors.validation('这篇论文没有这位作者，请刷新页面后重试', { author_index: ['这篇论文没有这位作者'] });
    }
    const result = await this.deps.followedAuthors.create(
      user.id,
      {
        name: author.name,
        orcid: author.orcid,
        openalexId: author.openalexId,
        affiliation: author.affiliation,
        paperId: Number(body.paper_id),
      },
      FOLLOWED_AUTHOR_LIMITS.perReader,
    );
    if ('refused' in result) {
      throw result.refused === 'limit'
        ? errors.validation(`最多关注 ${FOLLOWED_AUTHOR_LIMITS.perReader} 位作者，请先取消关注一位`)
        : errors.validation('这位作者的姓名无法识别，不能关注', { author_index: ['姓名无法识别'] });
    }
    const row = 'created' in result ? result.created : result.existing;
    return { created: 'created' in result, body: { ...(await this.list(user)), followed: presentFollowedAuthor(row) } };
  }

  /** DELETE /api/auth/followed-authors/{id}/. */
  async unfollow(user: UserRow, rawId: string): Promise<FollowedAuthorListResponse> {
    if (!(await this.deps.followedAuthors.remove(user.id, parseRowId(rawId, NOT_FOUND))))
      throw errors.notFound(NOT_FOUND);
    return this.list(user);
  }
}

function presentFollowedAuthor(row: FollowedAuthorRow): FollowedAuthor {
  return {
    id: String(row.id),
    name: row.name,
    affiliation: row.affiliation,
    orcid: row.orcid,
    openalex_id: row.openalexId,
    is_name_only: !row.orcid && !row.openalexId && !row.affiliation,
    paper_id: row.paperId === null ? null : String(row.paperId),
    created_at: row.createdAt.toISOString(),
  };
}
