import type pg from 'pg';

export interface DatabaseStatus {
  serverVersion: string;
  pgvectorVersion: string | undefined;
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
}
