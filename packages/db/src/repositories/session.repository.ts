import { and, desc, eq, gt, isNull, lt, ne } from 'drizzle-orm';
import type { Database } from '../connection';
import { sessions } from '../schema';

export type SessionRow = typeof sessions.$inferSelect;
export type NewSessionRow = typeof sessions.$inferInsert;
/** What the auth guard needs of a session to accept its token. */
export type SessionState = Pick<SessionRow, 'id' | 'lastSeenAt' | 'revokedAt'>;

/** More unexpired sessions than this for one user: the oldest are looked up one by one (see listForAuth). */
const SESSIONS_CACHED_PER_USER = 500;

export class SessionRepository {
  constructor(private readonly db: Database) {}

  async create(values: NewSessionRow): Promise<SessionRow> {
    const [row] = await this.db.insert(sessions).values(values).returning();
    if (!row) throw new Error('insert into sessions returned no row');
    return row;
  }

  /**
   * The user's unexpired sessions, revoked ones included (so a revoked token is refused without asking
   * again), newest first, at most SESSIONS_CACHED_PER_USER.
   */
  async listForAuth(userId: string, now: Date): Promise<SessionState[]> {
    return this.db
      .select({ id: sessions.id, lastSeenAt: sessions.lastSeenAt, revokedAt: sessions.revokedAt })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.createdAt))
      .limit(SESSIONS_CACHED_PER_USER);
  }

  /** The user's sessions that still sign in, most recently seen first. */
  async listActive(userId: string, now: Date): Promise<SessionRow[]> {
    return this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt))
      .limit(SESSIONS_CACHED_PER_USER);
  }

  /** Ends one active session of the user; false when it is not one (another user's, ended, unknown). */
  async revoke(userId: string, sessionId: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(sessions.id, sessionId),
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
        ),
      )
      .returning({ id: sessions.id });
    return rows.length === 1;
  }

  /** Ends every active session of the user except `keepSessionId` (all of them when undefined); how many. */
  async revokeAll(userId: string, now: Date, keepSessionId?: string): Promise<number> {
    const rows = await this.db
      .update(sessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
          keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
        ),
      )
      .returning({ id: sessions.id });
    return rows.length;
  }

  /** Records activity unless another request (or process) recorded some since `staleBefore`. */
  async touch(sessionId: string, now: Date, staleBefore: Date): Promise<void> {
    await this.db
      .update(sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, staleBefore)));
  }

  /** Deletes sessions whose tokens have expired (their tokens are refused by `exp` anyway). Idempotent. */
  async purgeExpired(now: Date): Promise<number> {
    const rows = await this.db.delete(sessions).where(lt(sessions.expiresAt, now)).returning({ id: sessions.id });
    return rows.length;
  }
}
