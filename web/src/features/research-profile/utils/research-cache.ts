import type { UserResponse } from '@radar/shared';
import { RESEARCH_CACHE_STORAGE_KEYS } from '@/lib/session';

/**
 * Keeps the research_* fields of the shown profile in localStorage; login clears them (lib/session), so one account never sees another's.
 */
export function cacheResearchProfile(user: Pick<UserResponse, (typeof RESEARCH_CACHE_STORAGE_KEYS)[number]>): void {
  try {
    const storage = globalThis.localStorage;
    if (!storage) return;
    for (const key of RESEARCH_CACHE_STORAGE_KEYS) storage.setItem(key, user[key]);
  } catch {
    // Storage blocked or full: the cache is a convenience, the page reads the server's profile.
  }
}
