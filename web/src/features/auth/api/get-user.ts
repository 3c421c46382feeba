import { API_PATHS, type UserResponse } from '@radar/shared';
import { api } from '@/lib/api-client';
import { startEarlyGet, takeEarlyGet } from '@/lib/early-answers';

/** The signed-in account with its research profile. */
export type User = UserResponse;

/** GET /api/auth/user/. */
export async function getUser(options: { signal?: AbortSignal } = {}): Promise<User> {
  const raw = await api.get<unknown>(API_PATHS.user, options);
  return toUser(raw);
}

/**
 * Starts GET /api/auth/user/ before React renders (app/early-requests): the guard, the page's code and
 * the page's own requests then no longer wait for the shell's first render. Resolves to the account,
 * or rejects as getUser would.
 */
export async function prefetchUser(): Promise<User> {
  return toUser(await startEarlyGet(API_PATHS.user));
}

/** The auth provider's first load: the prefetched request when there is one, else a new one. */
export async function getUserOnStart(): Promise<User> {
  const early = takeEarlyGet<unknown>(API_PATHS.user);
  return early ? toUser(await early) : getUser();
}

/**
 * Reads the response defensively: without an id and email it is not a user (the session is treated as
 * invalid); missing profile fields become empty strings so screens need no null checks.
 */
export function toUser(raw: unknown): User {
  if (typeof raw !== 'object' || raw === null) throw new TypeError('user response is not an object');
  const record = raw as Record<string, unknown>;
  const text = (key: keyof User) => {
    const value = record[key];
    return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  };
  const id = text('id');
  const email = text('email');
  if (id === '' || email === '') throw new TypeError('user response has no id or email');
  const username = text('username');
  return {
    id,
    email,
    username,
    name: text('name') || username || email.split('@')[0] || email,
    research_description: text('research_description'),
    research_name: text('research_name'),
    research_email: text('research_email'),
    research_institution: text('research_institution'),
    research_position: text('research_position'),
    research_fields: text('research_fields'),
    research_summary_en: text('research_summary_en'),
  };
}
