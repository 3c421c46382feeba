import type { SessionRow } from '@radar/db';
import { describeUserAgent, type Session } from '@radar/shared';

export function presentSession(row: SessionRow, currentSessionId: string): Session {
  return {
    id: row.id,
    device: describeUserAgent(row.userAgent),
    user_agent: row.userAgent,
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastSeenAt.toISOString(),
    is_current: row.id === currentSessionId,
  };
}
