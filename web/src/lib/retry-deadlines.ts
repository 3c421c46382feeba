/**
 * When a rate-limited action may be tried again, per e-mail address, in localStorage: a reload (or a
 * second tab) keeps counting down instead of offering a button the server would refuse. Past deadlines
 * are dropped on every write; an unreadable entry counts as none.
 */

type Deadlines = Record<string, number>;

function getStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();

function readDeadlines(key: string, now: number): Deadlines {
  let parsed: unknown;
  try {
    parsed = JSON.parse(getStorage()?.getItem(key) ?? '{}');
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const deadlines: Deadlines = {};
  for (const [email, deadline] of Object.entries(parsed)) {
    if (typeof deadline === 'number' && Number.isFinite(deadline) && deadline > now) deadlines[email] = deadline;
  }
  return deadlines;
}

/** The deadline (epoch ms) stored for `email` under `key`, or null when none is pending. */
export function getRetryDeadline(key: string, email: string, now = Date.now()): number | null {
  return readDeadlines(key, now)[normaliseEmail(email)] ?? null;
}

/** The address whose deadline ends last, for prefilling the form after a reload; undefined when none. */
export function getLatestRetryEmail(key: string, now = Date.now()): string | undefined {
  const entries = Object.entries(readDeadlines(key, now));
  return entries.sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Drops the deadline of `email` under `key` (the address is no longer the reader's). */
export function forgetRetryDeadline(key: string, email: string): void {
  try {
    const storage = getStorage();
    if (!storage || storage.getItem(key) === null) return;
    const deadlines = readDeadlines(key, Date.now());
    delete deadlines[normaliseEmail(email)];
    if (Object.keys(deadlines).length === 0) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(deadlines));
  } catch {
    // Storage blocked: nothing was stored either.
  }
}

export function storeRetryDeadline(key: string, email: string, deadline: number, now = Date.now()): void {
  const deadlines = readDeadlines(key, now);
  deadlines[normaliseEmail(email)] = deadline;
  try {
    getStorage()?.setItem(key, JSON.stringify(deadlines));
  } catch {
    // Storage full or blocked: the countdown still runs until the page is left.
  }
}
