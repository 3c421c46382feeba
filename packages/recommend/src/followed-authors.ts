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
 *   3. a name match where either side has no affiliation ('name') may be a namesake. It is shown only
 *      with evidence from the paper the author was followed from: a research field in common, or a
 *      co-author in common (`evidence`); without it, the paper is folded away as a namesake's (the page
 *      counts them in one line, and they never fill the Atom feed, the digest or the alert mail): a
 *      common name otherwise floods the section with strangers' papers.
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

/** What a name-only match shares with the paper the author was followed from. */
export type FollowedAuthorEvidence = 'field' | 'coauthor';

/** A paper by followed authors: each follow it matched, under the name the paper gives them. */
export interface MatchedAuthorPaper {
  paperId: number;
  publishedAt: string | null;
  authors: { followId: number; name: string; match: FollowedAuthorMatch; evidence?: FollowedAuthorEvidence }[];
}

/** The section's papers, and the name-only matches without evidence (possibly namesakes), folded. */
export interface FollowedAuthorMatches {
  papers: MatchedAuthorPaper[];
  /** At most as many as `papers` may hold, newest first. */
  namesakes: MatchedAuthorPaper[];
  /** How many of the candidates looked at were folded (namesakes may hold fewer). */
  namesakeCount: number;
}

type FollowContext = Pick<FollowedAuthorRow, 'nameKey' | 'orcid' | 'openalexId' | 'paperFields' | 'paperAuthorKeys'>;

/**
 * What a name-only match of `follow` on `candidate` shares with the paper the author was followed
 * from: a research field, else a co-author (an author key other than the followed person's own);
 * undefined: nothing, possibly a namesake.
 */
function nameMatchEvidence(
  follow: FollowContext,
  candidate: Pick<FollowedAuthorCandidate, 'fields' | 'authorKeys'>,
): FollowedAuthorEvidence | undefined {
  const fields = new Set(follow.paperFields ?? []);
  if (candidate.fields.some((field) => fields.has(field))) return 'field';
  const own = new Set([
    `n:${follow.nameKey}`,
    ...(follow.orcid ? [`o:${follow.orcid}`] : []),
    ...(follow.openalexId ? [`a:${follow.openalexId}`] : []),
  ]);
  const coauthors = new Set((follow.paperAuthorKeys ?? []).filter((key) => !own.has(key)));
  if (candidate.authorKeys.some((key) => coauthors.has(key))) return 'coauthor';
  return undefined;
}

/** Whether a matched paper is shown: an id or affiliation match, or a name match with evidence. */
const isConfirmed = (paper: MatchedAuthorPaper) =>
  paper.authors.some((author) => author.match !== 'name' || author.evidence !== undefined);

/** How many candidates to look at for `limit` papers: name keys shared by namesakes bring candidates the rules drop. */
export function followedAuthorCandidateLimit(limit: number): number {
  return Math.max(200, limit * 10);
}

/**
 * The candidates (newest publication first) that an author of matches a follow by the rules above, each
 * with the follows it matched under the name the paper gives them: those shown (at most `limit`), and
 * the name-only matches without evidence, folded (at most `limit`, with their count).
 */
export function matchFollowedAuthorPapers(
  follows: readonly FollowedAuthorRow[],
  candidates: readonly FollowedAuthorCandidate[],
  limit: number,
): FollowedAuthorMatches {
  const result: FollowedAuthorMatches = { papers: [], namesakes: [], namesakeCount: 0 };
  if (limit <= 0) return result;
  for (const candidate of candidates) {
    const authors: MatchedAuthorPaper['authors'] = [];
    for (const follow of follows) {
      let best: { name: string; match: FollowedAuthorMatch } | undefined;
      for (const author of candidate.authors) {
        const match = matchFollowedAuthor(follow, author);
        if (match && (!best || STRENGTH[match] > STRENGTH[best.match])) best = { name: author.name, match };
      }
      if (!best) continue;
      const evidence = best.match === 'name' ? nameMatchEvidence(follow, candidate) : undefined;
      authors.push({ followId: follow.id, ...best, ...(evidence ? { evidence } : {}) });
    }
    if (authors.length === 0) continue;
    const paper = { paperId: candidate.paperId, publishedAt: candidate.publishedAt, authors };
    if (isConfirmed(paper)) {
      if (result.papers.length < limit) result.papers.push(paper);
    } else {
      result.namesakeCount += 1;
      if (result.namesakes.length < limit) result.namesakes.push(paper);
    }
  }
  return result;
}

/**
 * The reader's papers by followed authors, newest publication first, at most `limit`: candidates by
 * lookup key from the repository, kept when an author matches a follow by the rules above, name-only
 * matches without evidence left out (the keyword alert digest; /papers reads the follows and candidates
 * within its own round trips, see pipeline.ts).
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
): Promise<MatchedAuthorPaper[]> {
  const follows = await repository.list(userId);
  if (follows.length === 0 || options.limit <= 0) return [];
  const candidates = await repository.findCandidates(userId, follows, {
    ...options,
    limit: followedAuthorCandidateLimit(options.limit),
  });
  return matchFollowedAuthorPapers(follows, candidates, options.limit).papers;
}
