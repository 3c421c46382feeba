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
