import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { vectorArrayBinary, vectorTypeOid } from './vector-binary';

/**
 * Stored vectors across the tables that have them (papers, news items, user profiles), for keeping
 * them on the active embedding model: finding rows whose vector is missing or from another model,
 * writing new vectors in batches, counting progress, and reading the corpus a built-in model is
 * fitted on. Similarity search itself is in paper.repository.ts.
 */

export type VectorTarget = 'users' | 'papers' | 'news';
export const VECTOR_TARGETS: readonly VectorTarget[] = ['users', 'papers', 'news'];

/** A row to (re-)embed: the text parts the embedding is made from. */
export type EmbeddableRow = {
  id: string;
  title: string;
  body: string;
};

interface TargetColumns {
  table: string;
  idType: 'bigint' | 'uuid';
  vector: string;
  model: string;
  title: string;
  body: string;
  /** Rows that should have a vector at all. */
  eligible: string;
  embeddedAt?: string;
}

// Constant identifiers only; values always go in as parameters.
const TARGETS: Record<VectorTarget, TargetColumns> = {
  papers: {
    table: 'radar.papers',
    idType: 'bigint',
    vector: 'embedding',
    model: 'embedding_model_id',
    title: 'title',
    body: 'abstract',
    eligible: 'true',
  },
  news: {
    table: 'radar.news_items',
    idType: 'bigint',
    vector: 'embedding',
    model: 'embedding_model_id',
    title: 'title',
    body: 'content',
    eligible: 'true',
  },
  users: {
    table: 'radar.users',
    idType: 'uuid',
    vector: 'profile_embedding',
    model: 'profile_embedding_model_id',
    // A profile's "title" is the text its summary was drafted from (CrossLingualTexts.profile).
    title: 'research_description',
    body: 'research_summary_en',
    eligible: "research_summary_en <> ''",
    embeddedAt: 'profile_embedded_at',
  },
};

const raw = (text: string) => sql.raw(text);

function staleCondition(target: TargetColumns, modelId: number): SQL {
  return sql`${raw(target.eligible)} AND ${raw(target.model)} IS DISTINCT FROM ${modelId}`;
}

export class VectorRepository {
  constructor(private readonly db: Database) {}

  /** Eligible rows whose vector is missing or made by another model, per table. */
  async countStale(modelId: number): Promise<Record<VectorTarget, number>> {
    const counts = {} as Record<VectorTarget, number>;
    for (const name of VECTOR_TARGETS) {
      const target = TARGETS[name];
      const result = await this.db.execute<{ count: number }>(
        sql`SELECT count(*)::int AS count FROM ${raw(target.table)} WHERE ${staleCondition(target, modelId)}`,
      );
      counts[name] = Number(result.rows[0]?.count ?? 0);
    }
    return counts;
  }

  /**
   * Papers and news items without a vector of the active model (all of them when no model is active),
   * in one statement: the metrics endpoint reads it at every scrape.
   */
  async countEmbeddingBacklog(): Promise<{ papers: number; news: number }> {
    const notOnActiveModel = (alias: string) =>
      sql`NOT EXISTS (SELECT 1 FROM radar.embedding_models m WHERE m.is_active AND m.id = ${raw(alias)}.embedding_model_id)`;
    const result = await this.db.execute<{ papers: number; news: number }>(
      sql`SELECT (SELECT count(*)::int FROM radar.papers p WHERE ${notOnActiveModel('p')}) AS papers,
                 (SELECT count(*)::int FROM radar.news_items n WHERE ${notOnActiveModel('n')}) AS news`,
    );
    const row = result.rows[0];
    return { papers: Number(row?.papers ?? 0), news: Number(row?.news ?? 0) };
  }

  /** Rows with a vector of this model, per table. */
  async countCurrent(modelId: number): Promise<Record<VectorTarget, number>> {
    const counts = {} as Record<VectorTarget, number>;
    for (const name of VECTOR_TARGETS) {
      const target = TARGETS[name];
      const result = await this.db.execute<{ count: number }>(
        sql`SELECT count(*)::int AS count FROM ${raw(target.table)} WHERE ${raw(target.model)} = ${modelId}`,
      );
      counts[name] = Number(result.rows[0]?.count ?? 0);
    }
    return counts;
  }

  /**
   * The next batch of stale rows, newest first (highest id), strictly older than `beforeId` when
   * given. Keyset pagination on the primary key, so each batch is an index scan. `ids` restricts the
   * batch to those rows (new items right after ingestion).
   */
  async listStale(
    name: VectorTarget,
    modelId: number,
    options: { limit: number; beforeId?: string | undefined; ids?: readonly string[] | undefined },
  ): Promise<EmbeddableRow[]> {
    const target = TARGETS[name];
    if (options.ids?.length === 0) return [];
    const before = options.beforeId === undefined ? sql`` : sql` AND t.id < ${options.beforeId}::${raw(target.idType)}`;
    // One text parameter (drizzle would expand an array into a list); ids are numbers or uuids.
    const only = options.ids
      ? sql` AND t.id = ANY(string_to_array(${options.ids.join(',')}, ',')::${raw(target.idType)}[])`
      : sql``;
    // Ordered by the table's id column (t.id), not the text alias: '99' > '240' as text.
    const result = await this.db.execute<EmbeddableRow>(
      sql`SELECT t.id::text AS id, ${raw(target.title)} AS title, ${raw(target.body)} AS body
          FROM ${raw(target.table)} AS t
          WHERE ${staleCondition(target, modelId)}${before}${only}
          ORDER BY t.id DESC
          LIMIT ${Math.max(1, Math.trunc(options.limit))}`,
    );
    return result.rows.map((row) => ({ id: String(row.id), title: row.title ?? '', body: row.body ?? '' }));
  }

  /**
   * Writes vectors of one model in one statement; returns the rows written. `whileActive`: only while
   * that model is the active one, so a job that started before a refit activated another model cannot
   * overwrite vectors already re-embedded with the new one.
   */
  async setVectors(
    name: VectorTarget,
    modelId: number,
    items: { id: string; vector: number[] }[],
    options: { whileActive?: boolean } = {},
  ): Promise<number> {
    if (items.length === 0) return 0;
    const target = TARGETS[name];
    for (const item of items) {
      if (!item.vector.every(Number.isFinite)) throw new RangeError(`vector for ${name} ${item.id} is not finite`);
    }
    // Two array parameters however many rows: a VALUES list of 1,000 rows made 2,000 parameters and as
    // many query fragments to assemble. The vectors in binary, as a bulk insert writes them (vector-binary.ts).
    const ids = `{${items.map((item) => item.id).join(',')}}`;
    const vectors = vectorArrayBinary(
      items.map((item) => item.vector),
      await vectorTypeOid(this.db),
    );
    const embeddedAt = target.embeddedAt ? sql`, ${raw(target.embeddedAt)} = now()` : sql``;
    const whileActive = options.whileActive
      ? sql` AND EXISTS (SELECT 1 FROM radar.embedding_models m WHERE m.id = ${modelId} AND m.is_active)`
      : sql``;
    const result = await this.db.execute(
      sql`UPDATE ${raw(target.table)} AS t
          SET ${raw(target.vector)} = v.vec, ${raw(target.model)} = ${modelId}${embeddedAt}
          FROM unnest(${ids}::${raw(target.idType)}[], ${vectors}::vector[]) AS v(id, vec)
          WHERE t.id = v.id${whileActive}`,
    );
    return result.rowCount ?? 0;
  }

  /** Removes profile vectors of users who no longer have a research summary. */
  async clearVectorsOfEmptyProfiles(): Promise<number> {
    const result = await this.db.execute(
      sql`UPDATE radar.users SET profile_embedding = NULL, profile_embedding_model_id = NULL, profile_embedded_at = NULL
          WHERE research_summary_en = '' AND profile_embedding IS NOT NULL`,
    );
    return result.rowCount ?? 0;
  }

  async setUserVector(userId: string, modelId: number, vector: number[]): Promise<void> {
    await this.setVectors('users', modelId, [{ id: userId, vector }]);
  }

  async clearUserVector(userId: string): Promise<void> {
    await this.db.execute(
      sql`UPDATE radar.users SET profile_embedding = NULL, profile_embedding_model_id = NULL, profile_embedded_at = NULL
          WHERE id = ${userId}::uuid`,
    );
  }

  /** Papers plus news items: the corpus a built-in model is fitted on. */
  async corpusSize(): Promise<number> {
    const result = await this.db.execute<{ count: number }>(
      sql`SELECT (SELECT count(*) FROM radar.papers) + (SELECT count(*) FROM radar.news_items) AS count`,
    );
    return Number(result.rows[0]?.count ?? 0);
  }

  /**
   * Texts to fit a built-in model on: the newest papers and news items (the vocabulary of what is
   * being recommended now), at most `limit`, papers first in proportion to their share.
   */
  async sampleCorpus(limit: number): Promise<EmbeddableRow[]> {
    const n = Math.max(1, Math.trunc(limit));
    const result = await this.db.execute<EmbeddableRow>(
      sql`(SELECT 'p' || id AS id, title, abstract AS body FROM radar.papers ORDER BY id DESC LIMIT ${n})
          UNION ALL
          (SELECT 'n' || id AS id, title, content AS body FROM radar.news_items ORDER BY id DESC LIMIT ${n})`,
    );
    const papers = result.rows.filter((row) => row.id.startsWith('p'));
    const news = result.rows.filter((row) => row.id.startsWith('n'));
    const total = papers.length + news.length;
    if (total <= n) return [...papers, ...news];
    const paperShare = Math.round((n * papers.length) / total);
    return [...papers.slice(0, paperShare), ...news.slice(0, n - paperShare)];
  }
}
