/** Countdowns: code expiry (m:ss), resend cooldown and rate limits (seconds). */

/** Whole seconds from `now` until `deadline` (both epoch milliseconds), rounded up, never negative. */
export function secondsUntil(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** `m:ss`, e.g. 299 -> '4:59', 60 -> '1:00', 5 -> '0:05'; negative and fractional values count as whole seconds left. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Milliseconds until the displayed whole-second value next changes (a tick exactly on the boundary). */
export function msUntilNextTick(deadline: number, now: number): number {
  const left = deadline - now;
  if (left <= 0) return 0;
  return left % 1000 || 1000;
}

/**
 * A wait before an action may be retried, as a reader takes it in: up to a minute in seconds
 * ('42 秒', the resend cooldown's '60 秒'), under ten minutes as m:ss ('4:05'), longer as rounded-up minutes ('约 55 分钟'): a
 * rate limit of 3245 s reads as an hour, not as a number to divide by 60.
 */
export function formatRetryWait(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  if (seconds <= 60) return `${seconds} 秒`;
  if (seconds < 600) return formatCountdown(seconds);
  return `约 ${Math.ceil(seconds / 60)} 分钟`;
}
