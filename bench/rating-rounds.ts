/**
 * `pnpm bench:ratings [--readers 12] [--rounds 5] [--top-k 20] [--database-url URL] [file.csv]`: issue 31,
 * simulated readers who rate everything /papers shows them, through the HTTP API only (docs/benchmarks.md,
 * "Issue 31: ratings through the HTTP API").
 *
 * - Corpus: the labelled dev set (<shared fixtures>/eval/arxiv_cs_4class_balanced_800.csv), one paper per
 *   title with every category it is listed in (673 papers), written as an arXiv Atom feed published
 *   today and loaded with the product's own loader, `pnpm radar ingest arxiv --file` (run in this
 *   process): it stores the papers, fits the built-in model on them and embeds them with it.
 * - Server: the real one (startRuntime, its in-process worker fits each reader's classifier), on
 *   127.0.0.1; embedded PGlite on disk in a temporary DATA_DIR by default (as `pnpm start`), or a fresh
 *   database `radar_bench_ratings` on the server of --database-url (dropped at the end). Mail goes to
 *   DATA_DIR/outbox.
 * - Readers (HTTP only): each registers, reads its code from the outbox, verifies, and confirms a
 *   research summary = one labelled paper's title + abstract (papers spread evenly over the set, so
 *   the categories are balanced). Beside each, a twin with the same summary who never rates.
 * - Rounds: GET /papers (top_k, date_filter 不限, similarity_threshold 0, excluded_jcr empty, exclude_ids
 *   = the reader's own paper); the reader rates every paper shown it has not rated yet, 👍 when it shares
 *   a category with the reader's paper, 👎 otherwise; then waits for the learning: polls GET
 *   /api/auth/recommendations/learning/ until `updated_at` is past the last rating (the worker refits a
 *   few seconds after it), at most 30 s.
 * - The plain next page: the twin's plain ranking at the same depth, ranks [k(r-1), k·r) of its list in
 *   round r, asked for as the product's 加载更多 asks (exclude_ids = every id the twin was shown so far),
 *   so it is what a reader who learned nothing would see after paging past as many papers. top_k cannot
 *   reach past rank 50, so exclude_ids is the only way to the deeper windows; a server that ignores
 *   exclude_ids gives the twin its top k again, and the twin's "unseen" column says so.
 *
 * The answer key (which arXiv categories each paper id has) is read from the database once after the
 * load; everything a reader does goes through HTTP.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { readLabelledCsv } from '../packages/ai/src/testing/labelled-set';
import { runRadarCommand } from '../packages/cli/src/radar-command';
import { openDatabase, sql } from '../packages/db/src';
import { sharedFixturesDir } from '../packages/db/src/testing/fixtures';
import { arxivAtomFeed } from '../packages/jobs/src/testing/arxiv-atom';
import { API_PATHS } from '../packages/shared/src';
import { loadConfig } from '../packages/shared/src/server';
import { createLogger, startRuntime } from '../server/src';
import { GENEROUS_AUTH_RATE_LIMITS } from '../server/test/test-runtime';
import { positiveInt } from './lib/cli-args';

const { values: args, positionals } = parseArgs({
  options: {
    readers: { type: 'string', default: '12' },
    rounds: { type: 'string', default: '5' },
    'top-k': { type: 'string', default: '20' },
    'database-url': { type: 'string' },
    'learning-wait': { type: 'string', default: '30' },
  },
  allowPositionals: true,
  strict: true,
});
const READERS = positiveInt('readers', args.readers, 200);
const ROUNDS = positiveInt('rounds', args.rounds, 20);
const TOP_K = positiveInt('top-k', args['top-k'], 50);
const LEARNING_WAIT_MS = positiveInt('learning-wait', args['learning-wait'], 600) * 1000;
const FILE = path.resolve(positionals[0] ?? path.join(sharedFixturesDir(), 'eval/arxiv_cs_4class_balanced_800.csv'));
const PASSWORD = 'bench-ratings-horse-31';
/** Progress lines every 10 s when the output is a file rather than a terminal. */
const NOT_TTY = { noTTYOutput: true, notTTYSchedule: 10_000 };

// ------------------------------------------------------------------------------------------------ corpus

interface DevPaper {
  arxivId: string;
  title: string;
  abstract: string;
  categories: string[];
  text: string;
}

/** One paper per title with every category it is listed in (as arXiv lists a cross-listed paper once). */
async function devSetPapers(): Promise<DevPaper[]> {
  const byTitle = new Map<string, DevPaper>();
  for (const row of await readLabelledCsv(FILE)) {
    const key = row.title.toLowerCase().replace(/\s+/g, ' ');
    const known = byTitle.get(key);
    if (known) {
      if (!known.categories.includes(row.label)) known.categories.push(row.label);
      continue;
    }
    const arxivId = `2611.${String(byTitle.size + 1).padStart(5, '0')}`;
    byTitle.set(key, { arxivId, title: row.title, abstract: row.abstract, categories: [row.label], text: row.text });
  }
  return [...byTitle.values()];
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-bench-ratings-'));
let databaseUrl: string | undefined;
if (args['database-url']) {
  const admin = await openDatabase({ databaseUrl: args['database-url'], dataDir, poolMax: 1, migrate: false });
  await admin.pool.query('DROP DATABASE IF EXISTS radar_bench_ratings WITH (FORCE)');
  await admin.pool.query('CREATE DATABASE radar_bench_ratings');
  await admin.close();
  const url = new URL(args['database-url']);
  url.pathname = '/radar_bench_ratings';
  databaseUrl = url.toString();
}
const baseEnv: Record<string, string> = {
  DATA_DIR: dataDir,
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  LOG_LEVEL: 'error',
};

const papers = await devSetPapers();
const now = Date.now();
const feed = path.join(dataDir, 'dev-set.atom.xml');
await fs.writeFile(
  feed,
  arxivAtomFeed(
    papers.map((paper, i) => ({
      id: paper.arxivId,
      title: paper.title,
      abstract: paper.abstract,
      categories: paper.categories,
      // Today, a second apart, so every date window holds them all.
      published: new Date(now - i * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      authors: ['A. Author', 'B. Author'],
    })),
  ),
);
process.stdout.write(`loading ${papers.length} papers of ${path.basename(FILE)} with pnpm radar ingest arxiv --file\n`);
const ingestStarted = Date.now();
const ingestLines: string[] = [];
const ingestCode = await runRadarCommand(['ingest', 'arxiv', '--file', feed], {
  env: baseEnv,
  out: (line) => ingestLines.push(line),
  err: (line) => ingestLines.push(line),
});
if (ingestCode !== 0) throw new Error(`ingest failed (${ingestCode}):\n${ingestLines.join('\n')}`);
for (const line of ingestLines) process.stdout.write(`  ${line}\n`);
process.stdout.write(`  (${((Date.now() - ingestStarted) / 1000).toFixed(1)} s)\n`);

// ------------------------------------------------------------------------------------------------ server

const config = loadConfig({
  ...baseEnv,
  JWT_SECRET: randomBytes(48).toString('base64url'),
  INGEST_ENABLED: 'false',
  JOURNAL_TIERS_AUTO: 'false',
});
const silent = new Writable({ write: (_chunk, _encoding, callback) => callback() });
const runtime = await startRuntime(config, createLogger(config.logLevel, silent), {
  webDistDir: '',
  recurringJobs: false,
  // Every reader registers from 127.0.0.1: the per-address limits would refuse the third. The per-user
  // quotas stay the product's.
  authRateLimits: GENEROUS_AUTH_RATE_LIMITS,
});
await runtime.app.listen({ host: '127.0.0.1', port: 0 });
const baseUrl = `http://127.0.0.1:${(runtime.app.server.address() as { port: number }).port}`;

// The answer key: arXiv id -> the paper's id in the database.
const keyRows = await runtime.database.db.execute<{ id: string; arxiv_id: string }>(
  sql`SELECT id::text AS id, arxiv_id FROM radar.papers WHERE arxiv_id IS NOT NULL`,
);
const byArxivId = new Map(papers.map((paper) => [paper.arxivId, paper]));
const categoriesById = new Map<string, string[]>();
const idByArxivId = new Map<string, string>();
for (const row of keyRows.rows) {
  const paper = byArxivId.get(row.arxiv_id.replace(/v\d+$/, ''));
  if (!paper) continue;
  categoriesById.set(row.id, paper.categories);
  idByArxivId.set(paper.arxivId, row.id);
}

// -------------------------------------------------------------------------------------------------- HTTP

async function call<T>(method: 'GET' | 'POST', url: string, token?: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${url}: HTTP ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** The 6-digit code of the newest verification mail to `email` in DATA_DIR/outbox (waits for it). */
async function verificationCode(email: string): Promise<string> {
  const outbox = path.join(dataDir, 'outbox');
  const deadline = Date.now() + 15_000;
  for (;;) {
    const names = (await fs.readdir(outbox).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
    for (const name of names.sort().reverse()) {
      const text = decodedMail(await fs.readFile(path.join(outbox, name), 'utf8'));
      if (!text.includes(email)) continue;
      const code = /验证码是：\s*(\d{6})/.exec(text)?.[1];
      if (code) return code;
    }
    if (Date.now() > deadline) throw new Error(`no verification mail to ${email} in ${outbox}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Enough MIME for the mails nodemailer writes: the headers and every part, base64 parts decoded (the
 * text part of a code mail is base64). e2e/src/outbox.ts has a fuller reader; bench/ may not import e2e/.
 */
function decodedMail(raw: string): string {
  const text = raw.replace(/\r\n/g, '\n');
  const decoded = [...text.matchAll(/Content-Transfer-Encoding: base64\n\n([A-Za-z0-9+/=\n]+)/gi)].map((match) =>
    Buffer.from((match[1] ?? '').replace(/\s+/g, ''), 'base64').toString('utf8'),
  );
  return [text, ...decoded].join('\n');
}

async function register(email: string, summary: string): Promise<string> {
  await call('POST', API_PATHS.register, undefined, { email, password: PASSWORD, password2: PASSWORD });
  const code = await verificationCode(email);
  const { token } = await call<{ token: string }>('POST', API_PATHS.verifyEmail, undefined, {
    email,
    verification_code: code,
  });
  const confirmed = await call<{ has_vector: boolean }>('POST', API_PATHS.researchConfirm, token, {
    research_summary_en: summary.slice(0, 5000),
  });
  if (!confirmed.has_vector) throw new Error(`${email}: the confirmed profile has no vector`);
  return token;
}

interface PageAnswer {
  recommendations: { id: string; url: string }[];
  learning: { applied: boolean; classifier?: boolean };
  has_more?: boolean;
}

/** GET /papers with the bench's filters; `shown` goes to exclude_ids (at most 500: the contract's cap). */
function recommendations(token: string, shown: readonly string[]): Promise<PageAnswer> {
  const query = new URLSearchParams({
    top_k: String(TOP_K),
    date_filter: '',
    similarity_threshold: '0',
    excluded_jcr: '',
    exclude_ids: shown.slice(-500).join(','),
  });
  return call<PageAnswer>('GET', `${API_PATHS.paperRecommendations}?${query}`, token);
}

interface LearningStatus {
  applied: boolean;
  updated_at: string | null;
}

/** Polls the learning status until it was computed after `since` (ms); false when `LEARNING_WAIT_MS` passed. */
async function waitForLearning(token: string, since: number): Promise<boolean> {
  const deadline = Date.now() + LEARNING_WAIT_MS;
  for (;;) {
    const status = await call<LearningStatus>('GET', API_PATHS.learningStatus, token);
    if (status.applied && status.updated_at && Date.parse(status.updated_at) >= since) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

// ----------------------------------------------------------------------------------------------- readers

interface Reader {
  paper: DevPaper;
  /** The reader's own paper's id: never counted, never rated. */
  ownId: string;
  token: string;
  twinToken: string;
  rated: Map<string, 1 | -1>;
  /** Every id the twin was shown, in order (its exclude_ids). */
  twinShown: string[];
}

interface RoundFigures {
  /** Papers on the first page (the reader's own paper left out). */
  shown: number;
  /** Of those, not rated before this round. */
  unseen: number;
  unseenRelevant: number;
  relevant: number;
  /** The twin's page: papers, papers it had not been shown before, and relevant ones among them. */
  twinShown: number;
  twinUnseen: number;
  twinRelevant: number;
  classifier: boolean;
  learned: boolean;
  hasMore: boolean | undefined;
}

const isRelevant = (reader: Reader, id: string) =>
  (categoriesById.get(id) ?? []).some((category) => reader.paper.categories.includes(category));

const chosen = Array.from(
  { length: READERS },
  (_, i) => papers[Math.floor(((i + 0.5) * papers.length) / READERS)] as DevPaper,
);
const runTag = randomBytes(3).toString('hex');
const readersStarted = Date.now();
const setupBar = new cliProgress.SingleBar(
  { format: 'registering readers {bar} {value}/{total} | {duration_formatted}', ...NOT_TTY },
  cliProgress.Presets.shades_classic,
);
setupBar.start(READERS * 2, 0);
const readers: Reader[] = [];
for (const [i, paper] of chosen.entries()) {
  const token = await register(`reader-${i}-${runTag}@example.org`, paper.text);
  setupBar.increment();
  const twinToken = await register(`twin-${i}-${runTag}@example.org`, paper.text);
  setupBar.increment();
  readers.push({
    paper,
    ownId: idByArxivId.get(paper.arxivId) ?? '',
    token,
    twinToken,
    rated: new Map(),
    twinShown: [],
  });
}
setupBar.stop();
const setupSeconds = (Date.now() - readersStarted) / 1000;

async function playRound(reader: Reader): Promise<RoundFigures> {
  const page = await recommendations(reader.token, [reader.ownId]);
  const shown = page.recommendations.map((paper) => paper.id).filter((id) => id !== reader.ownId);
  const unseen = shown.filter((id) => !reader.rated.has(id));
  const twinPage = await recommendations(reader.twinToken, [reader.ownId, ...reader.twinShown]);
  const twinIds = twinPage.recommendations.map((paper) => paper.id).filter((id) => id !== reader.ownId);
  const twinUnseen = twinIds.filter((id) => !reader.twinShown.includes(id));
  reader.twinShown.push(...twinUnseen);

  let lastRatingAt = 0;
  for (const id of unseen) {
    const value = isRelevant(reader, id) ? 1 : -1;
    lastRatingAt = Date.now();
    await call('POST', API_PATHS.paperRating.replace(':id', id), reader.token, { value });
    reader.rated.set(id, value);
  }
  const learned = unseen.length ? await waitForLearning(reader.token, lastRatingAt) : true;
  return {
    shown: shown.length,
    unseen: unseen.length,
    unseenRelevant: unseen.filter((id) => isRelevant(reader, id)).length,
    relevant: shown.filter((id) => isRelevant(reader, id)).length,
    twinShown: twinIds.length,
    twinUnseen: twinUnseen.length,
    twinRelevant: twinUnseen.filter((id) => isRelevant(reader, id)).length,
    classifier: page.learning.classifier === true,
    learned,
    hasMore: page.has_more,
  };
}

const roundsStarted = Date.now();
const bar = new cliProgress.SingleBar(
  {
    format: 'rating rounds       {bar} {value}/{total} reader-rounds | round {round} | {duration_formatted}',
    ...NOT_TTY,
  },
  cliProgress.Presets.shades_classic,
);
bar.start(READERS * ROUNDS, 0, { round: 1 });
const figures: RoundFigures[][] = [];
for (let round = 1; round <= ROUNDS; round++) {
  bar.update({ round });
  // Readers act side by side, as people do; each one's requests are in order.
  figures.push(
    await Promise.all(
      readers.map(async (reader) => {
        const result = await playRound(reader);
        bar.increment();
        return result;
      }),
    ),
  );
}
bar.stop();
const roundsSeconds = (Date.now() - roundsStarted) / 1000;

// ---------------------------------------------------------------------------------------------- report

const sum = (rows: RoundFigures[], pick: (row: RoundFigures) => number) =>
  rows.reduce((total, row) => total + pick(row), 0);
const ratio = (numerator: number, denominator: number) => (denominator ? (numerator / denominator).toFixed(3) : '-');
const hasMoreValues = new Set(figures.flat().map((row) => String(row.hasMore)));
process.stdout.write(
  `\nissue 31, ratings through the HTTP API: ${papers.length} papers, ${READERS} readers (+ ${READERS} twins who never rate), ` +
    `${ROUNDS} rounds, top_k ${TOP_K}, date_filter 不限, threshold 0, no tier excluded; ` +
    `${databaseUrl ? 'PostgreSQL' : 'embedded PGlite'}, ${os.cpus().length} cores, load average ${os.loadavg()[0]?.toFixed(2)}, ` +
    `${new Date().toISOString().slice(0, 10)}\n` +
    `set-up ${setupSeconds.toFixed(1)} s (registration, verification, profile), rounds ${roundsSeconds.toFixed(1)} s; ` +
    `has_more in the answers: ${[...hasMoreValues].join(', ')}\n\n`,
);
const header = [
  'round',
  'unseen on page 1',
  'precision of unseen',
  'precision of page 1',
  'plain next page: unseen',
  'plain next page: precision',
  'classifier order',
  'learning fitted',
];
const rows = figures.map((rows, index) => [
  String(index + 1),
  `${(sum(rows, (r) => r.unseen) / READERS).toFixed(1)} of ${(sum(rows, (r) => r.shown) / READERS).toFixed(1)}`,
  ratio(
    sum(rows, (r) => r.unseenRelevant),
    sum(rows, (r) => r.unseen),
  ),
  ratio(
    sum(rows, (r) => r.relevant),
    sum(rows, (r) => r.shown),
  ),
  `${(sum(rows, (r) => r.twinUnseen) / READERS).toFixed(1)} of ${(sum(rows, (r) => r.twinShown) / READERS).toFixed(1)}`,
  ratio(
    sum(rows, (r) => r.twinRelevant),
    sum(rows, (r) => r.twinUnseen),
  ),
  `${rows.filter((r) => r.classifier).length}/${READERS}`,
  `${rows.filter((r) => r.learned).length}/${READERS}`,
]);
const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |\n`;
process.stdout.write(line(header));
process.stdout.write(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |\n`);
for (const row of rows) process.stdout.write(line(row));
process.stdout.write(
  `\n(per reader, means over readers. unseen: papers the reader had not rated before the round; page 1 is the first\n` +
    ` answer of the round without paging, the reader's own paper left out. precision of unseen: on-topic share of\n` +
    ` those (same arXiv category as the reader's paper). plain next page: the twin, who never rates, at the same\n` +
    ` depth: ranks [${TOP_K}(r-1), ${TOP_K}r) of the plain ranking, reached with exclude_ids = all it was shown; a\n` +
    ` server that ignores exclude_ids gives it its top ${TOP_K} again (unseen 0 from round 2). classifier order:\n` +
    ` the answer's learning.classifier. learning fitted: learning status updated after the round's last rating\n` +
    ` within ${LEARNING_WAIT_MS / 1000} s.)\n`,
);

await runtime.close();
await fs.rm(dataDir, { recursive: true, force: true });
if (args['database-url']) {
  const admin = await openDatabase({
    databaseUrl: args['database-url'],
    dataDir: os.tmpdir(),
    poolMax: 1,
    migrate: false,
  });
  await admin.pool.query('DROP DATABASE IF EXISTS radar_bench_ratings WITH (FORCE)');
  await admin.close();
}
