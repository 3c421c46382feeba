import type pg from 'pg';

export interface DatabaseStatus {
  serverVersion: string;
  pgvectorVersion: string | undefined;
}

export interface DatabaseOverview {
  migrationsApplied: number;
  users: number;
  papers: number;
  newsItems: number;
  journals: number;
  embeddingModels: number;
  /** Feedback and contact-form messages no operator has marked read (`radar messages read`). */
  unreadMessages: number;
}

export class HealthRepository {
  constructor(private readonly pool: pg.Pool) {}

  async getStatus(): Promise<DatabaseStatus> {
    const { rows } = await this.pool.query<{ server_version: string; pgvector_version: string | null }>(
      `SELECT current_setting('server_version') AS server_version,
              (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector_version`,
    );
    const row = rows[0];
    return { serverVersion: row?.server_version ?? 'unknown', pgvectorVersion: row?.pgvector_version ?? undefined };
  }

  /**
   * Counts for operators (`pnpm radar status`). Users are accounts with a password: the password-less rows
   * that only hold an unknown address's verification state are not people.
   */
  async getOverview(): Promise<DatabaseOverview> {
    const { rows } = await this.pool.query<Record<string, number>>(
      `SELECT (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS migrations,
              (SELECT count(*)::int FROM radar.users WHERE password_hash IS NOT NULL) AS users,
              (SELECT count(*)::int FROM radar.papers) AS papers,
              (SELECT count(*)::int FROM radar.news_items) AS news_items,
              (SELECT count(*)::int FROM radar.journals) AS journals,
              (SELECT count(*)::int FROM radar.embedding_models) AS embedding_models,
              (SELECT count(*)::int FROM radar.feedback WHERE read_at IS NULL) AS unread_messages`,
    );
    const row = rows[0] ?? {};
    return {
      migrationsApplied: row.migrations ?? 0,
      users: row.users ?? 0,
      papers: row.papers ?? 0,
      newsItems: row.news_items ?? 0,
      journals: row.journals ?? 0,
      embeddingModels: row.embedding_models ?? 0,
      unreadMessages: row.unread_messages ?? 0,
    };
  }
}
