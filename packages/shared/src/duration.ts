import { parse } from '@lukeed/ms';

/**
 * Durations as operators write them (JWT_EXPIRES_IN=7d, `--grace 12h` of `radar queues clean`), read by
 * @lukeed/ms: the library fast-jwt reads a token lifetime with, so what the configuration accepts is
 * what signs the token. A number and a unit: ms, s, m, h, d, w, y, short or long ('90s', '30 min',
 * '1.5h', '2 weeks'). Refused: a bare number (milliseconds or seconds? nobody can tell), a negative
 * duration, and zero unless the caller allows it ('0' alone, e.g. "keep nothing").
 */
export const DURATION_EXAMPLES = '7d, 12h, 30m, 90s';

export function parseDuration(text: string, options: { allowZero?: boolean } = {}): number | undefined {
  const written = text.trim();
  if (written === '0') return options.allowZero ? 0 : undefined;
  if (!/^\d*\.?\d+\s*[a-z]+$/i.test(written)) return undefined;
  const ms = parse(written);
  return ms !== undefined && Number.isFinite(ms) && ms > 0 ? ms : undefined;
}
