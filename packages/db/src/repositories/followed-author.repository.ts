import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { type AuthorIdentity, followedAuthors } from '../schema';
import { listablePublicPaper, notJudgedPaper, paperVisibleTo } from './reader-eligibility';

export type { AuthorIdentity };

/** An author a reader follows. */
export interface FollowedAuthorRow {
  id: number;
  name: string;
  /** radar.author_name_key of the name ('liu j'). */
  nameKey: string;
  orcid: string | null;
  openalexId: string | null;
  affiliation: string | null;
  /** The paper they were followed from; null once it is gone. */
  paperId: number | null;
  createdAt: Date;
  /**
   * That paper's research fields (its own and its journal's) and its authors' lookup keys (n:, o:, a:):
   * what a name-only match must share with it to be shown (@radar/recommend). Empty when it is gone;
   * left out by reads that do not need them.
   */
  paperFields?: string[];
  paperAuthorKeys?: string[];
}

/** One author of a stored paper: the name, its key, and what the source knew of them. */
export interface PaperAuthor extends AuthorIdentity {
  /** radar.author_name_key of the name; null for a name without letters. */
  nameKey: string | null;
}

/** A paper one of the follows may have written (its authors share a key with a follow). */
export interface FollowedAuthorCandidate {
  paperId: number;
  publishedAt: string | null;
  createdAt: Date;
  authors: PaperAuthor[];
  /** Its research fields, its own and its journal's. */
  fields: string[];
  /** Its authors' lookup keys (papers.author_keys). */
  authorKeys: string[];
}

export type FollowCreateResult =
  | { created: FollowedAuthorRow }
  | { existing: FollowedAuthorRow }
  | { refused: 'limit' | 'no_name' };

const COLUMNS = {
  id: followedAuthors.id,
  name: followedAuthors.name,
  nameKey: followedAuthors.nameKey,
  orcid: followedAuthors.orcid,
  openalexId: followedAuthors.openalexId,
  affiliation: followedAuthors.affiliation,
  paperId: followedAuthors.paperId,
  createdAt: followedAuthors.createdAt,
};

/** A paper's research fields, its own and its journal's, over the paper row `alias`. */
const paperFieldsOf = (alias: string) =>
  `(${alias}.research_fields || coalesce((SELECT j.research_fields FROM radar.journals j WHERE j.id = ${alias}.journal_id), '{}'::text[]))`;

/** The followed-from paper's fields and author keys, for a follow row `alias` (FollowedAuthorRow.paperFields). */
const followedPaperFields = (alias: string) =>
  sql.raw(
    `coalesce((SELECT ${paperFieldsOf('fp')} FROM radar.papers fp WHERE fp.id = ${alias}.paper_id), '{}'::text[])`,
  );
const followedPaperKeys = (alias: string) =>
  sql.raw(`coalesce((SELECT fp.author_keys FROM radar.papers fp WHERE fp.id = ${alias}.paper_id), '{}'::text[])`);

/** The keys a follow is looked up by in papers.author_keys (see migration 0025). */
function followLookupKeys(follow: Pick<FollowedAuthorRow, 'nameKey' | 'orcid' | 'openalexId'>): string[] {
  return [
    `n:${follow.nameKey}`,
    ...(follow.orcid ? [`o:${follow.orcid}`] : []),
    ...(follow.openalexId ? [`a:${follow.openalexId}`] : []),
  ];
}

/**
 * A reader's followed authors (radar.followed_authors) and the papers that may be theirs. Every read and
 * write of follows is scoped to the reader, so another reader's id is simply not found. Which candidate
 * really is by a followed person is decided by @radar/recommend (matchFollowedAuthor).
 */
export class FollowedAuthorRepository {
  constructor(private readonly db: Database) {}

  /** Which of these readers follow anyone (one statement for a batch; the others need no look-up of papers). */
  async followersAmong(userIds: readonly string[]): Promise<Set<string>> {
    if (userIds.length === 0) return new Set();
    const rows = await this.db
      .selectDistinct({ userId: followedAuthors.userId })
      .from(followedAuthors)
      .where(inArray(followedAuthors.userId, [...userIds]));
    return new Set(rows.map((row) => row.userId));
  }

  async list(userId: string): Promise<FollowedAuthorRow[]> {
    return this.db
      .select({
        ...COLUMNS,
        paperFields: sql<string[]>`${followedPaperFields('radar.followed_authors')}`,
        paperAuthorKeys: sql<string[]>`${followedPaperKeys('radar.followed_authors')}`,
      })
      .from(followedAuthors)
      .where(eq(followedAuthors.userId, userId))
      .orderBy(asc(followedAuthors.id));
  }

  /**
   * Author `index` (0-based) of a paper as stored, or undefined when there is no such paper or author, or
   * the paper is private to another reader.
   */
  async paperAuthor(readerId: string, paperId: number, index: number): Promise<PaperAuthor | undefined> {
    const result = await this.db.execute<{ name: string | null; name_key: string | null; identity: unknown }>(
      sql`SELECT p.authors ->> ${Math.trunc(index)}::int AS name,
                 radar.author_name_key(p.authors ->> ${Math.trunc(index)}::int) AS name_key,
                 p.author_identities -> ${Math.trunc(index)}::int AS identity
          FROM radar.papers p WHERE p.id = ${Math.trunc(paperId)} AND ${paperVisibleTo(sql`p`, readerId)}`,
    );
    const row = result.rows[0];
    if (!row?.name) return undefined;
    return { ...identityOf(row.identity), name: row.name, nameKey: row.name_key };
  }

  /**
   * Follows an author unless the reader already follows `max` (checked in the same statement, so two
   * requests at once cannot both pass). The same person again (same ORCID iD, OpenAlex id, or name key
   * and affiliation) is not added twice: the existing follow is returned.
   */
  async create(
    userId: string,
    input: {
      name: string;
      orcid?: string | undefined;
      openalexId?: string | undefined;
      affiliation?: string | undefined;
      paperId: number;
    },
    max: number,
  ): Promise<FollowCreateResult> {
    const result = await this.db.execute<{ id: string }>(
      sql`INSERT INTO radar.followed_authors (user_id, name, name_key, orcid, openalex_id, affiliation, paper_id)
          SELECT ${userId}::uuid, ${input.name}, radar.author_name_key(${input.name}), ${input.orcid ?? null},
                 ${input.openalexId ?? null}, ${input.affiliation ?? null}, ${Math.trunc(input.paperId)}
          WHERE radar.author_name_key(${input.name}) IS NOT NULL
            AND (SELECT count(*) FROM radar.followed_authors WHERE user_id = ${userId}::uuid) < ${max}
          ON CONFLICT (user_id, person_key) DO NOTHING
          RETURNING id`,
    );
    const id = result.rows[0]?.id;
    if (id !== undefined) {
      const created = await this.find(userId, Number(id));
      if (created) return { created };
    }
    const existing = await this.db.execute<{ id: string }>(
      sql`SELECT id FROM radar.followed_authors
          WHERE user_id = ${userId}::uuid
            AND person_key = CASE WHEN ${input.orcid ?? null}::text IS NOT NULL THEN 'o:' || ${input.orcid ?? null}::text
                                  WHEN ${input.openalexId ?? null}::text IS NOT NULL THEN 'a:' || ${input.openalexId ?? null}::text
                                  ELSE 'n:' || radar.author_name_key(${input.name}) || '@' || lower(coalesce(${input.affiliation ?? null}::text, '')) END`,
    );
    const existingId = existing.rows[0]?.id;
    const found = existingId === undefined ? undefined : await this.find(userId, Number(existingId));
    if (found) return { existing: found };
    const key = await this.db.execute<{ key: string | null }>(sql`SELECT radar.author_name_key(${input.name}) AS key`);
    return { refused: key.rows[0]?.key ? 'limit' : 'no_name' };
  }

  async find(userId: string, id: number): Promise<FollowedAuthorRow | undefined> {
    const [row] = await this.db
      .select(COLUMNS)
      .from(followedAuthors)
      .where(and(eq(followedAuthors.userId, userId), eq(followedAuthors.id, id)));
    return row;
  }

  /** Whether the reader followed that author (and now no longer does). */
  async remove(userId: string, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(followedAuthors)
      .where(and(eq(followedAuthors.userId, userId), eq(followedAuthors.id, id)))
      .returning({ id: followedAuthors.id });
    return rows.length === 1;
  }

  /**
   * Papers sharing a lookup key with the follows, newest publication first (followedAuthorCandidatesStatement);
   * no round trip when the follows give no key.
   */
  async findCandidates(
    userId: string,
    follows: readonly Pick<FollowedAuthorRow, 'nameKey' | 'orcid' | 'openalexId'>[],
    options: FollowedAuthorCandidateOptions,
  ): Promise<FollowedAuthorCandidate[]> {
    const statement = followedAuthorCandidatesStatement(userId, follows, options);
    if (!statement) return [];
    const result = await this.db.execute<Record<string, unknown>>(statement);
    return toFollowedAuthorCandidates(result.rows);
  }
}

/** Which candidates findCandidates() looks at. */
export interface FollowedAuthorCandidateOptions {
  publishedSince?: string | undefined;
  createdSince?: Date | undefined;
  notAlerted?: boolean;
  /** 含已评价: papers rated 👍 stay (reader-eligibility.ts). */
  includeRated?: boolean | undefined;
  limit: number;
}

/**
 * A reader's follows as one JSON value, oldest first, for a statement that reads more (the
 * recommendation context reads them with the rest, so the section 关注的作者 costs no round trip of its
 * own); toFollows() reads it.
 */
export function followsQuery(userId: string): SQL {
  return sql`(SELECT coalesce(json_agg(json_build_object('id', f.id, 'name', f.name, 'nameKey', f.name_key,
      'orcid', f.orcid, 'openalexId', f.openalex_id, 'affiliation', f.affiliation, 'paperId', f.paper_id,
      'createdAt', f.created_at, 'paperFields', ${followedPaperFields('f')}, 'paperAuthorKeys', ${followedPaperKeys('f')})
      ORDER BY f.id), '[]'::json)
    FROM radar.followed_authors f WHERE f.user_id = ${userId}::uuid)`;
}

const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** Reads followsQuery()'s value. */
export function toFollows(value: unknown): FollowedAuthorRow[] {
  const rows = (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as Record<string, unknown>[];
  const text = (field: unknown) => (typeof field === 'string' ? field : null);
  return rows.map((row) => ({
    id: Number(row.id),
    name: String(row.name),
    nameKey: String(row.nameKey),
    orcid: text(row.orcid),
    openalexId: text(row.openalexId),
    affiliation: text(row.affiliation),
    paperId: row.paperId === null || row.paperId === undefined ? null : Number(row.paperId),
    createdAt: new Date(String(row.createdAt)),
    paperFields: texts(row.paperFields),
    paperAuthorKeys: texts(row.paperAuthorKeys),
  }));
}

/**
 * The statement of findCandidates(), to send with others (the recommendation request sends it with its
 * candidate search); toFollowedAuthorCandidates() reads its rows. Undefined when the follows give no key.
 * Papers sharing a lookup key with the follows (the GIN index on author_keys), newest publication
 * first: public canonical rows only, none the reader judged (reader-eligibility.ts); only those published on or
 * after `publishedSince` and stored on or after `createdSince` when given; `notAlerted` leaves out
 * papers already in the reader's keyword alert mails. In the search's message enable_sort is off; the
 * plan stays the same (GIN bitmap scan, then a sort: no index gives published_at DESC NULLS LAST;
 * measured at 100k papers, docs/benchmarks.md).
 */
export function followedAuthorCandidatesStatement(
  userId: string,
  follows: readonly Pick<FollowedAuthorRow, 'nameKey' | 'orcid' | 'openalexId'>[],
  options: FollowedAuthorCandidateOptions,
): SQL | undefined {
  const keys = [...new Set(follows.flatMap(followLookupKeys))];
  if (keys.length === 0) return undefined;
  return sql`SELECT p.id::text AS id, p.published_at::text AS published_at, p.created_at, p.authors,
                 p.author_identities AS identities, ${sql.raw(paperFieldsOf('p'))} AS fields, p.author_keys AS author_keys,
                 ARRAY(SELECT radar.author_name_key(a.name)
                       FROM jsonb_array_elements_text(p.authors) WITH ORDINALITY AS a(name, n) ORDER BY a.n) AS name_keys
          FROM radar.papers p
          WHERE p.author_keys && ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb))
            AND ${listablePublicPaper(sql.raw('p'))}
            AND (${options.publishedSince ?? null}::date IS NULL OR p.published_at >= ${options.publishedSince ?? null}::date)
            AND (${options.createdSince?.toISOString() ?? null}::timestamptz IS NULL
                 OR p.created_at >= ${options.createdSince?.toISOString() ?? null}::timestamptz)
            AND ${notJudgedPaper(sql.raw('p'), userId, { includeRated: options.includeRated })}
            AND (${options.notAlerted ?? false} = false OR NOT EXISTS (
                 SELECT 1 FROM radar.keyword_alert_deliveries d WHERE d.user_id = ${userId}::uuid AND d.paper_id = p.id))
          ORDER BY p.published_at DESC NULLS LAST, p.id DESC
          LIMIT ${Math.max(1, Math.trunc(options.limit))}`;
}

/** Reads the rows of followedAuthorCandidatesStatement(). */
export function toFollowedAuthorCandidates(rows: readonly Record<string, unknown>[]): FollowedAuthorCandidate[] {
  return rows.map((row) => {
    const identities = Array.isArray(row.identities) ? row.identities : [];
    const authors = Array.isArray(row.authors) ? (row.authors as string[]) : [];
    const nameKeys = Array.isArray(row.name_keys) ? (row.name_keys as (string | null)[]) : [];
    return {
      paperId: Number(row.id),
      publishedAt: row.published_at === null || row.published_at === undefined ? null : String(row.published_at),
      createdAt: new Date(row.created_at as string | Date),
      authors: authors.map((name, index) => ({
        ...identityOf(identities[index]),
        name,
        nameKey: nameKeys[index] ?? null,
      })),
      fields: texts(row.fields),
      authorKeys: texts(row.author_keys),
    };
  });
}

/** The ids and affiliation of a stored identity object (anything else is ignored). */
function identityOf(value: unknown): Omit<AuthorIdentity, 'name'> {
  if (!value || typeof value !== 'object') return {};
  const record = value as Record<string, unknown>;
  const text = (key: string) => (typeof record[key] === 'string' && record[key] ? (record[key] as string) : undefined);
  return { orcid: text('orcid'), openalexId: text('openalexId'), affiliation: text('affiliation') };
}
