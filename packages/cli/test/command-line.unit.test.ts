import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../src/command-line';

/** Flag parsing of every `pnpm radar` command (node:util parseArgs, strict), in process. */

const ingest = {
  usage: 'usage: pnpm radar ingest <source> [--since DATE] [--file PATH]',
  options: { since: { type: 'string' }, file: { type: 'string' } },
  positionals: { min: 1, max: 1 },
} as const;
const demo = {
  usage: 'usage: pnpm radar demo [--remove]',
  options: { remove: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
} as const;

function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseCommandLine', () => {
  it('reads positionals, --name value, --name=value and switches', () => {
    expect(parseCommandLine(['arxiv', '--since', '2026-01-31', '--file=a.xml'], ingest)).toMatchObject({
      positionals: ['arxiv'],
      values: { since: '2026-01-31', file: 'a.xml' },
    });
    expect(parseCommandLine(['--remove'], demo).values.remove).toBe(true);
    expect(parseCommandLine([], demo).values.remove).toBeUndefined();
  });

  it('refuses an unknown option in one line naming the options there are', () => {
    expect(usageError(() => parseCommandLine(['arxiv', '--sinse', 'x'], ingest))).toBe(
      'unknown option --sinse (expected --since, --file)',
    );
    expect(usageError(() => parseCommandLine(['-x'], { ...demo, options: {} }))).toBe(
      'unknown option -x (this command takes no options)',
    );
  });

  it('refuses an option without its value, and a value given to a switch', () => {
    expect(usageError(() => parseCommandLine(['arxiv', '--since'], ingest))).toBe('--since needs a value');
    expect(usageError(() => parseCommandLine(['arxiv', '--file', '--since', 'x'], ingest))).toBe(
      '--file needs a value',
    );
    expect(usageError(() => parseCommandLine(['arxiv', '--file='], ingest))).toBe('--file needs a value');
    expect(usageError(() => parseCommandLine(['--remove=yes'], demo))).toBe('--remove takes no value');
  });

  it('answers the wrong number of positionals with the usage line', () => {
    expect(usageError(() => parseCommandLine([], ingest))).toBe(ingest.usage);
    expect(usageError(() => parseCommandLine(['a', 'b'], ingest))).toBe(ingest.usage);
    expect(usageError(() => parseCommandLine(['extra'], demo))).toBe(demo.usage);
  });

  it('never answers in more than one line', () => {
    for (const args of [
      ['arxiv', '--nope'],
      ['arxiv', '--since', '-1'],
      ['--file', '-', 'a', 'b'],
    ]) {
      expect(usageError(() => parseCommandLine(args, ingest))).not.toContain('\n');
    }
  });
});
