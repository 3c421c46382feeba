import type { FollowedAuthorCandidate, FollowedAuthorRepository, FollowedAuthorRow, PaperAuthor } from '@radar/db';

/**
 * Which papers are by an author a reader follows. Names alone do not tell people apart, so a paper's
 * author is the followed person by the strongest evidence both sides have (docs/decisions.md "Followed
 * authors: telling namesakes apart"):
 *   1. ids: the same ORCID iD or OpenAlex author id is the person ('id'); two different ORCID iDs (or
 *      two different OpenAlex ids) are two people, whatever their names;
 *   2. otherwise the name key (radar.author_name_key: family name and first initial, accents folded)
 *      must be equal, and when both sides name an affiliation they must share an institution
 *      ('affiliation'), else it is someone else of that name;
 *   3. a name match where either side has no affiliation ('name') may be a namesake: the page and the
 *      mail say so.
 */
export type FollowedAuthorMatch = 'id' | 'affiliation' | 'name';

const STRENGTH: Record<FollowedAuthorMatch, number> = { id: 3, affiliation: 2, name: 1 };

type FollowIdentity = Pick<FollowedAuthorRow, 'nameKey' | 'orcid' | 'openalexId' | 'affiliation'>;

/** Lower case, accents folded, punctuation and digits as spaces. */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, ' ')
    .trim();

/** Parts naming a unit that many institutions have ("Department of Physics"), not an institution. */
const UNIT = /^(?:department|dept|school|faculty|college|division|laboratory|lab|key laboratory|group|center|centre) /;

/**
 * Whether two affiliations name a common institution: a part of one (between commas or semicolons) of
 * two words or more, digits and postcodes aside, appears whole in the other. "Tsinghua University" is
 * in "Department of Computer Science, Tsinghua University, Beijing 100084"; sharing only a city or a
 * country ("Beijing", "China") or a unit every university has ("Department of Physics") is not enough.
 */
export function affiliationsOverlap(left: string, right: string): boolean {
  const contains = (haystack: string, needle: string) => ` ${fold(haystack)} `.includes(` ${needle} `);
  const parts = (text: string) =>
    text
      .split(/[,;，；]/)
      .map(fold)
      .filter((part) => part.split(' ').length >= 2 && !UNIT.test(part));
  return parts(left).some((part) => contains(right, part)) || parts(right).some((part) => contains(left, part));
}

/** How a paper's author is the followed person, or undefined when they are not (see above). */
export function matchFollowedAuthor(follow: FollowIdentity, author: PaperAuthor): FollowedAuthorMatch | undefined {
  if (follow.orcid && author.orcid) return follow.orcid === author.orcid ? 'id' : undefined;
  if (follow.openalexId && author.openalexId) return follow.openalexId === author.openalexId ? 'id' : undefined;
  if (!author.nameKey || follow.nameKey !== author.nameKey) return undefined;
  if (follow.affiliation && author.affiliation) {
    return affiliationsOverlap(follow.affiliation, author.affiliation) ? 'affiliation' : undefined;
  }
  return 'name';
}

/** A paper by followed authors: each follow it matched, under the name the paper gives them. */
export interface FollowedAuthorPaper {
  paperId: number;
  publishedAt: string | null;
  authors: { followId: number; name: string; match: FollowedAuthorMatch }[];
}

/** How many candidates to look at for `limit` papers: name keys shared by namesakes bring candidates the rules drop. */
export function followedAuthorCandidateLimit(limit: number): number {
  return Math.max(200, limit * 10);
}

/**
 * The candidates (newest publication first) that an author of matches a follow by the rules above, at
 * most `limit`, each with the follows it matched under the name the paper gives them.
 */
export function matchFollowedAuthorPapers(
  follows: readonly FollowedAuthorRow[],
  candidates: readonly FollowedAuthorCandidate[],
  limit: number,
): FollowedAuthorPaper[] {
  const papers: FollowedAuthorPaper[] = [];
  if (limit <= 0) return papers;
  for (const candidate of candidates) {
    const authors: FollowedAuthorPaper['authors'] = [];
    for (const follow of follows) {
      let best: { name: string; match: FollowedAuthorMatch } | undefined;
      for (const author of candidate.authors) {
        const match = matchFollowedAuthor(follow, author);
        if (match && (!best || STRENGTH[match] > STRENGTH[best.match])) best = { name: author.name, match };
      }
      if (best) authors.push({ followId: follow.id, ...best });
    }
    if (authors.length) papers.push({ paperId: candidate.paperId, publishedAt: candidate.publishedAt, authors });
    if (papers.length >= limit) break;
  }
  return papers;
}

/**
 * The reader's papers by followed authors, newest publication first, at most `limit`: candidates by
 * lookup key from the repository, kept when an author matches a follow by the rules above (the keyword
 * alert digest; /papers reads the follows and candidates within its own round trips, see pipeline.ts).
 */
export async function findFollowedAuthorPapers(
  repository: Pick<FollowedAuthorRepository, 'list' | 'findCandidates'>,
  userId: string,
  options: {
    publishedSince?: string | undefined;
    createdSince?: Date | undefined;
    notAlerted?: boolean;
    limit: number;
  },
): Promise<FollowedAuthorPaper[]> {
  const follows = await repository.list(userId);
  if (follows.length === 0 || options.limit <= 0) return [];
  const candidates = await repository.findCandidates(userId, follows, {
    ...options,
    limit: followedAuthorCandidateLimit(options.limit),
  });
  return matchFollowedAuthorPapers(follows, candidates, options.limit);
}
