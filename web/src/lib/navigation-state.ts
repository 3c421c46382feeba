import { LIMITS } from '@radar/shared';

/**
 * Navigation state that carries a return target, e.g. `navigate('/login', { state: { from: '/papers' } })`.
 * The state survives reloads (history state) but anyone can forge it, so it is read defensively.
 */
export type ReturnState = { from: string };

export function createReturnState(from: string): ReturnState {
  return { from };
}

/** The `from` path in a location's state when it is a same-origin path, else undefined. */
export function getReturnTarget(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('from' in state)) return undefined;
  const { from } = state;
  // A protocol-relative '//host' or a backslash variant would leave the site.
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) {
    return undefined;
  }
  return from;
}

/**
 * State the auth screens pass to each other: the e-mail typed so far, and
 * the route the visitor came from, so login after a detour through register or forgot-password still
 * returns there.
 */
export type AuthNavigationState = Partial<ReturnState> & { email?: string };

export function createAuthNavigationState({ email, from }: { email?: string; from?: string }): AuthNavigationState {
  const state: AuthNavigationState = {};
  const trimmed = email?.trim();
  if (trimmed) state.email = trimmed;
  if (from) state.from = from;
  return state;
}

/** The `email` in a location's state when it is a plausible prefill (a short string), else undefined. */
export function getStateEmail(state: unknown): string | undefined {
  if (typeof state !== 'object' || state === null || !('email' in state)) return undefined;
  const { email } = state;
  if (typeof email !== 'string') return undefined;
  const trimmed = email.trim();
  // Longer than any accepted address: ignored rather than prefilled.
  return trimmed && trimmed.length <= LIMITS.emailMaxLength ? trimmed : undefined;
}
