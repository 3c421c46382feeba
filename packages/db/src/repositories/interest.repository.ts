import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { readerInterests, userArticleStates } from '../schema';
import { parseVectorText } from '../schema/columns';
import type { EmbeddingModelRow } from './embedding.repository';

export type InterestKind = 'typed' | 'favourites';

/** A stored interest as the reader manages it (without its vector). */
export interface InterestRow {
  id: number;
  kind: 'summary' | InterestKind;
  name: string;
  description: string;
  paperIds: number[];
  quota: number;
  /** The model of its vector; null while it has none. */
  embeddingModelId: number | null;
  createdAt: Date;
}

/** An interest the ranking draws candidates from: its vector of the active model. */
export interface RankingInterest {
  id: number;
  name: string;
  /** What the reader typed ('' for one made from favourites): the reason names what a card shares with it. */
  description: string;
  quota: number;
  vector: number[];
}

const COLUMNS = {
  id: readerInterests.id,
  kind: readerInterests.kind,
  name: readerInterests.name,
  description: readerInterests.description,
  paperIds: readerInterests.paperIds,
  quota: readerInterests.quota,
  embeddingModelId: readerInterests.embeddingModelId,
  createdAt: readerInterests.createdAt,
};

/**
 * A reader's research interests (radar.reader_interests): the ones they typed or made from favourites,
 * and the quota of the research summary (a 'summary' row made when the reader first moves its slider).
 * Every read and write is scoped to the reader, so another reader's id is simply not found.
 */
export class InterestRepository {
  constructor(private readonly db: Database) {}

  /** The reader's interests in the order they were made, the summary's row (if any) among them. */
  async list(userId: string): Promise<InterestRow[]> {
    const rows = await this.db
      .select(COLUMNS)
      .from(readerInterests)
      .where(eq(readerInterests.userId, userId))
      .orderBy(asc(readerInterests.id));
    return rows.map((row) => ({ ...row, paperIds: row.paperIds.map(Number) }));
  }

  /**
   * Adds an interest unless the reader already has `maxOthers` besides the summary (checked in the same
   * statement, so two requests at once cannot both pass). undefined: the limit was reached.
   */
  async create(
    userId: string,
    input: { kind: InterestKind; name: string; description: string; paperIds: number[]; quota: number },
    maxOthers: number,
  ): Promise<InterestRow | undefined> {
    const ids = `{${input.paperIds.map((id) => Math.trunc(id)).join(',')}}`;
    const result = await this.db.execute<{ id: string }>(
      sql`INSERT INTO radar.reader_interests (user_id, kind, name, description, paper_ids, quota)
          SELECT ${userId}::uuid, ${input.kind}, ${input.name}, ${input.description}, ${ids}::bigint[], ${input.quota}
          WHERE (SELECT count(*) FROM radar.reader_interests
                 WHERE user_id = ${userId}::uuid AND kind <> 'summary') < ${maxOthers}
          RETURNING id`,
    );
    const id = result.rows[0]?.id;
    return id === undefined ? undefined : this.find(userId, Number(id));
  }

  async find(userId: string, id: number): Promise<InterestRow | undefined> {
    const [row] = await this.db
      .select(COLUMNS)
      .from(readerInterests)
      .where(and(eq(readerInterests.userId, userId), eq(readerInterests.id, id), ne(readerInterests.kind, 'summary')));
    return row ? { ...row, paperIds: row.paperIds.map(Number) } : undefined;
  }

  /**
   * Changes an interest's name, description, papers or quota. A changed description or set of papers
   * drops the vector (the caller embeds it again). undefined: no such interest of this reader.
   */
  async update(
    userId: string,
    id: number,
    patch: {
      name?: string | undefined;
      description?: string | undefined;
      paperIds?: number[] | undefined;
      quota?: number | undefined;
    },
  ): Promise<InterestRow | undefined> {
    const changesVector = patch.description !== undefined || patch.paperIds !== undefined;
    const rows = await this.db
      .update(readerInterests)
      .set({
        ...(patch.name === undefined ? {} : { name: patch.name }),
        ...(patch.description === undefined ? {} : { description: patch.description }),
        ...(patch.paperIds === undefined ? {} : { paperIds: patch.paperIds }),
        ...(patch.quota === undefined ? {} : { quota: patch.quota }),
        ...(changesVector ? { embedding: null, embeddingModelId: null, embeddedAt: null } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(readerInterests.userId, userId), eq(readerInterests.id, id), ne(readerInterests.kind, 'summary')))
      .returning({ id: readerInterests.id });
    return rows.length ? this.find(userId, id) : undefined;
  }

  /** Whether the reader had that interest (the summary cannot be removed). */
  async remove(userId: string, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(readerInterests)
      .where(and(eq(readerInterests.userId, userId), eq(readerInterests.id, id), ne(readerInterests.kind, 'summary')))
      .returning({ id: readerInterests.id });
    return rows.length === 1;
  }

  /** The research summary's quota, kept in its own row. */
  async setSummaryQuota(userId: string, quota: number, summaryName: string): Promise<void> {
    await this.db.execute(
      sql`INSERT INTO radar.reader_interests (user_id, kind, name, quota) VALUES (${userId}::uuid, 'summary', ${summaryName}, ${quota})
          ON CONFLICT (user_id) WHERE kind = 'summary' DO UPDATE SET quota = EXCLUDED.quota, updated_at = now()`,
    );
  }

  /** Of these papers, the ones the reader has favourited, in the given order. */
  async favoritedAmong(userId: string, paperIds: readonly number[]): Promise<number[]> {
    if (paperIds.length === 0) return [];
    const rows = await this.db
      .select({ paperId: userArticleStates.paperId })
      .from(userArticleStates)
      .where(
        and(
          eq(userArticleStates.userId, userId),
          eq(userArticleStates.isFavorited, true),
          sql`${userArticleStates.paperId} = ANY(string_to_array(${paperIds.map((id) => Math.trunc(id)).join(',')}, ',')::bigint[])`,
        ),
      );
    const found = new Set(rows.map((row) => Number(row.paperId)));
    return paperIds.filter((id) => found.has(id));
  }

  /** Stores a typed interest's vector of one model. */
  async setVector(id: number, modelId: number, vector: number[]): Promise<void> {
    if (!vector.every(Number.isFinite)) throw new RangeError(`vector of interest ${id} is not finite`);
    await this.db.execute(
      sql`UPDATE radar.reader_interests SET embedding = ${`[${vector.join(',')}]`}::vector,
            embedding_model_id = ${modelId}, embedded_at = now() WHERE id = ${id}`,
    );
  }

  /**
   * Interests made from favourites whose vector is missing or of another model (all of them, or `ids`):
   * each becomes the mean of its papers' vectors of this model, in one statement. An interest none of
   * whose papers has such a vector yet keeps none. Returns how many got one.
   */
  async refreshFavoriteVectors(model: Pick<EmbeddingModelRow, 'id'>, ids?: readonly number[]): Promise<number> {
    const only = ids
      ? sql` AND i.id = ANY(string_to_array(${ids.map((id) => Math.trunc(id)).join(',') || '0'}, ',')::bigint[])`
      : sql``;
    const result = await this.db.execute(
      sql`UPDATE radar.reader_interests i SET embedding = m.mean, embedding_model_id = ${model.id}, embedded_at = now()
          FROM (
            SELECT i2.id, avg(p.embedding) AS mean
            FROM radar.reader_interests i2
            JOIN radar.papers p ON p.id = ANY(i2.paper_ids) AND p.embedding_model_id = ${model.id}
            WHERE i2.kind = 'favourites' AND i2.embedding_model_id IS DISTINCT FROM ${model.id}
            GROUP BY i2.id
          ) m
          WHERE i.id = m.id${only}`,
    );
    return result.rowCount ?? 0;
  }

  /** Typed interests whose vector is missing or of another model: what to embed, and from which text. */
  async listStaleTyped(modelId: number, limit: number): Promise<{ id: number; description: string }[]> {
    const result = await this.db.execute<{ id: string; description: string }>(
      sql`SELECT id, description FROM radar.reader_interests
          WHERE kind = 'typed' AND embedding_model_id IS DISTINCT FROM ${modelId}
          ORDER BY id LIMIT ${Math.max(1, Math.trunc(limit))}`,
    );
    return result.rows.map((row) => ({ id: Number(row.id), description: row.description }));
  }
}

/** The `interests` column of the recommendation context: the reader's interests with a vector of the active model. */
export function rankingInterestsQuery(userId: string) {
  return sql`(SELECT coalesce(json_agg(json_build_object('id', i.id, 'kind', i.kind, 'name', i.name, 'description', i.description, 'quota', i.quota,
      'vector', i.embedding::text) ORDER BY i.id), '[]'::json)
    FROM radar.reader_interests i
    WHERE i.user_id = ${userId}::uuid
      AND (i.kind = 'summary' OR i.embedding_model_id = (SELECT id FROM radar.embedding_models WHERE is_active)))`;
}

/** Reads rankingInterestsQuery's value: the summary's quota (when set) and the other interests. */
export function toRankingInterests(
  value: unknown,
  dimension: number | undefined,
): { summaryQuota: number | undefined; others: RankingInterest[] } {
  const rows = (typeof value === 'string' ? JSON.parse(value) : (value ?? [])) as {
    id: number | string;
    kind: string;
    name: string;
    description?: string | null;
    quota: number;
    vector: string | null;
  }[];
  let summaryQuota: number | undefined;
  const others: RankingInterest[] = [];
  for (const row of rows) {
    if (row.kind === 'summary') {
      summaryQuota = Number(row.quota);
      continue;
    }
    if (!row.vector) continue;
    const vector = parseVectorText(row.vector);
    if (vector.length !== dimension) continue;
    others.push({
      id: Number(row.id),
      name: row.name,
      description: row.description ?? '',
      quota: Number(row.quota),
      vector,
    });
  }
  return { summaryQuota, others };
}
