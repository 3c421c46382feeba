/**
 * A benchmark's whole-number option: a positive integer (up to `max`), else one line on stderr and exit 2,
 * before anything is built.
 */
export function positiveInt(name: string, value: string | undefined, max = Number.MAX_SAFE_INTEGER): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? 'a positive integer' : `an integer from 1 to ${max}`;
    process.stderr.write(`--${name} must be ${range}, got ${value}\n`);
    process.exit(2);
  }
  return parsed;
}
