import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkRadarCommandLine } from '../src/radar-command';

/**
 * Every `radar ...` command that a message, a page or the documentation names exists, judged by the
 * CLI's own command table and argument parsers (issue 18: an empty list told operators to run
 * `radar demo load`, which never existed). Scanned: the server, the web app and the packages' sources
 * (tests excluded: they quote wrong commands on purpose), the root README, docs/ and each folder's README.
 */

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'test', 'testing']);

function listFiles(dir: string, extensions: RegExp): string[] {
  const absolute = path.join(REPO_ROOT, dir);
  if (!fs.existsSync(absolute)) return [];
  return fs.readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : listFiles(relative, extensions);
    return extensions.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [relative] : [];
  });
}

function scannedFiles(): string[] {
  const folders = ['server', 'web', 'e2e', 'config', 'worker'];
  const packages = fs.readdirSync(path.join(REPO_ROOT, 'packages')).map((name) => `packages/${name}`);
  const readmes = ['README.md', ...[...folders, ...packages].map((folder) => `${folder}/README.md`)].filter((file) =>
    fs.existsSync(path.join(REPO_ROOT, file)),
  );
  return [
    ...listFiles('server/src', /\.ts$/),
    ...listFiles('web/src', /\.tsx?$/),
    ...packages.flatMap((folder) => listFiles(`${folder}/src`, /\.ts$/)),
    ...listFiles('docs', /\.md$/),
    ...readmes,
  ];
}

/**
 * The PostgreSQL schema and role are named radar too: prose such as "the radar schema", not a command;
 * and the research term "radar signal processing" of the field glossaries.
 */
const PROSE_AFTER_RADAR = new Set(['schema', 'signal']);

/**
 * The command lines quoted in a text: `radar` (as a word, not `@radar/...` or `radar.papers`) and what
 * follows on the line while it reads as a command line. A `<placeholder>` becomes an argument, an
 * optional `[...]` part is dropped, and the line ends at anything else (Chinese text, a backtick, `|`).
 */
function quotedCommandLines(text: string): string[][] {
  const lines: string[][] = [];
  for (const match of text.matchAll(/(?<![\w./@-])radar (?=[a-z<])/g)) {
    let rest = text.slice((match.index ?? 0) + match[0].length).split('\n', 1)[0] ?? '';
    rest = rest.replace(/<[^<>]{1,40}>/g, 'ARG');
    for (let previous = ''; previous !== rest; ) {
      previous = rest;
      rest = rest.replace(/\[[^[\]]*\]/g, '');
    }
    const words: string[] = [];
    for (const token of rest.split(/ +/)) {
      const word = token.replace(/[.,;:]$/, '');
      if (!/^(?:[a-z][\w.-]*|--?[a-z][\w-]*(?:=\S+)?|[A-Z][A-Z0-9_-]*|\d[\w:-]*)$/.test(word)) break;
      words.push(word);
      if (word !== token) break;
    }
    if (words.length > 0 && !PROSE_AFTER_RADAR.has(words[0] ?? '') && words[0] !== 'ARG') lines.push(words);
  }
  return lines;
}

/**
 * Why the CLI refuses a quoted command line, or undefined. A line that names only the command is a
 * reference to it; a longer one may stop early (`radar ingest <kind> --file`): it is accepted when
 * completing it with up to two arguments gives a line the CLI accepts.
 */
function refusal(words: string[]): string | undefined {
  const [name = '', ...args] = words;
  const named = checkRadarCommandLine([name]);
  if (named?.startsWith('unknown command')) return named;
  if (args.length === 0) return undefined;
  const firstRefusal = checkRadarCommandLine(words);
  if (firstRefusal === undefined) return undefined;
  for (const completion of [['ARG'], ['ARG', 'ARG']]) {
    if (checkRadarCommandLine([...words, ...completion]) === undefined) return undefined;
  }
  return firstRefusal;
}

describe('commands named in messages and documentation', () => {
  it('reads command lines as operators would type them', () => {
    expect(quotedCommandLines('管理员可运行 radar sources run <来源名称> 立即抓取')).toEqual([
      ['sources', 'run', 'ARG'],
    ]);
    expect(quotedCommandLines('`pnpm radar queues clean [<queue>] [--grace 1d]`, @radar/shared, radar.papers')).toEqual(
      [['queues', 'clean']],
    );
    expect(quotedCommandLines('或用 radar demo load 载入演示数据')).toEqual([['demo', 'load']]);
  });

  it('finds no command the CLI would refuse', () => {
    const refused: string[] = [];
    let checked = 0;
    for (const file of scannedFiles()) {
      const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
      for (const words of quotedCommandLines(text)) {
        checked += 1;
        const why = refusal(words);
        if (why) refused.push(`${file}: radar ${words.join(' ')} (${why})`);
      }
    }
    expect(refused).toEqual([]);
    // The scan really reads the sources: the README alone names a dozen commands.
    expect(checked).toBeGreaterThan(30);
  });

  it('refuses what does not exist, the way the CLI does', () => {
    expect(refusal(['demo', 'load'])).toBe('usage: pnpm radar demo [--remove]');
    expect(refusal(['sources', 'fetch'])).toMatch(/^usage: pnpm radar sources/);
    expect(refusal(['import'])).toBe('unknown command "import"');
    expect(refusal(['demo'])).toBeUndefined();
    expect(refusal(['ingest', 'ARG', '--file'])).toBeUndefined();
  });
});
