import type { SessionRepository, SessionRow, UserRow } from '@radar/db';
import type { EndSessionsResponse, SessionListResponse } from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';
import type { SessionRecorder } from '../../plugins/auth';
import { presentSession } from './session.presenter';

/** A session's `last_seen_at` moves at most this often: activity costs one write per session per interval, not one per request. */
export const SESSION_LAST_SEEN_INTERVAL_MS = 5 * 60_000;
/** How many sessions this process remembers having touched (beyond that the cached `last_seen_at` decides). */
const RECENTLY_SEEN_MAX = 10_000;
const USER_AGENT_MAX_LENGTH = 512;

export interface SessionServiceDeps {
  sessions: SessionRepository;
  /** The auth guard's cache (plugins/user-cache.ts): a revocation drops the user's entry before the answer. */
  accounts: { revoked(userId: string): Promise<void> };
  logger: Logger;
  now?: () => Date;
}

/**
 * The sessions of a user (one per login, each the `sid` of a bearer token): recording them, their
 * activity, listing them on /my, and ending one, all others, or every one. An ended session's token is
 * refused by every process from the answer on (each has acknowledged the trigger's notification).
 */
export class SessionService implements SessionRecorder {
  private readonly now: () => Date;
  /** Session id -> when this process last recorded its activity (ms); the cached row may predate it. */
  private readonly recentlySeen = new Map<string, number>();

  constructor(private readonly deps: SessionServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async start(session: { id: string; userId: string; userAgent: string; expiresAt: Date }): Promise<void> {
    const now = this.now();
    await this.deps.sessions.create({
      id: session.id,
      userId: session.userId,
      userAgent: session.userAgent.slice(0, USER_AGENT_MAX_LENGTH),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: session.expiresAt,
    });
  }

  async seen(sessionId: string, lastSeenAt: Date): Promise<void> {
    const now = this.now().getTime();
    const known = Math.max(lastSeenAt.getTime(), this.recentlySeen.get(sessionId) ?? 0);
    if (now - known < SESSION_LAST_SEEN_INTERVAL_MS) return;
    this.recentlySeen.delete(sessionId);
    this.recentlySeen.set(sessionId, now);
    if (this.recentlySeen.size > RECENTLY_SEEN_MAX) {
      const oldest = this.recentlySeen.keys().next().value;
      if (oldest !== undefined) this.recentlySeen.delete(oldest);
    }
    // Last seen is a courtesy for the session list: a failed write must not fail the request.
    await this.deps.sessions
      .touch(sessionId, new Date(now), new Date(now - SESSION_LAST_SEEN_INTERVAL_MS))
      .catch((error: Error) => this.deps.logger.warn({ err: error.message }, 'session last-seen not recorded'));
  }

  async list(user: UserRow, currentSessionId: string): Promise<SessionListResponse> {
    const rows = await this.deps.sessions.listActive(user.id, this.now());
    // The current session first, then the most recently seen.
    const ordered = [
      ...rows.filter((row) => row.id === currentSessionId),
      ...rows.filter((row) => row.id !== currentSessionId),
    ];
    return { sessions: ordered.map((row: SessionRow) => presentSession(row, currentSessionId)) };
  }

  /** Logout: ends the session of the token that asked. */
  async logout(user: UserRow, currentSessionId: string): Promise<{ message: string }> {
    await this.deps.sessions.revoke(user.id, currentSessionId, this.now());
    await this.deps.accounts.revoked(user.id);
    return { message: '已退出登录' };
  }

  /** Ends one of the user's sessions; any other id (another user's, ended, malformed) is a 404. */
  async end(user: UserRow, sessionId: string): Promise<EndSessionsResponse> {
    const id = sessionId.toLowerCase();
    const ended = UUID.test(id) && (await this.deps.sessions.revoke(user.id, id, this.now()));
    if (!ended) throw errors.notFound('该登录设备不存在或已退出');
    await this.deps.accounts.revoked(user.id);
    return { message: '已退出该设备', ended: 1 };
  }

  /** "Log out other devices": every session of the user but the one that asked. */
  async endOthers(user: UserRow, currentSessionId: string): Promise<EndSessionsResponse> {
    const ended = await this.deps.sessions.revokeAll(user.id, this.now(), currentSessionId);
    await this.deps.accounts.revoked(user.id);
    return { message: ended ? `已退出其他 ${ended} 台设备` : '没有其他登录设备', ended };
  }

  /** After a password change: every other session ends; returns how many. */
  async endOthersAfterPasswordChange(userId: string, currentSessionId: string): Promise<number> {
    const ended = await this.deps.sessions.revokeAll(userId, this.now(), currentSessionId);
    await this.deps.accounts.revoked(userId);
    return ended;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
