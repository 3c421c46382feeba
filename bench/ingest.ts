/**
 * `pnpm bench:ingest [--n 100000] [--database-url URL] [--database-name NAME] [--mode both|postgres|embedded]
 *   [--rerun] [--with-model] [--no-server-cpu] [--keep-file]`:
 * issue 35, bulk ingest of a large file (docs/benchmarks.md, "Issue 35: bulk ingest from a file").
 *
 * - File: N OpenAlex works as JSON Lines (what `pnpm radar ingest openalex --file` reads, as an OpenAlex
 *   snapshot or a saved list of pages gives it), made here with a seeded generator: titles of 8-16 words
 *   and abstracts of 120-260 words (as an inverted index, like OpenAlex) from a varied vocabulary,
 *   DOIs, 1-9 authors with OpenAlex ids and affiliations, 300 venues with ISSNs, topics of several
 *   fields, publication dates over one year. About 2 % of the lines repeat an earlier work's DOI with a
 *   longer abstract and 1 % repeat one unchanged, as real dumps do. Both are found by their DOI and
 *   merged with the stored row; the stored abstract stays (only a newer version of the record, such as
 *   an arXiv revision, replaces one: paper-merge.ts), so both end as "already stored, nothing new".
 * - Run: the product's own command, `pnpm radar ingest openalex --file FILE`, in this process
 *   (runRadarCommand): it stores the papers and, with no worker running, fits the built-in embedding
 *   model and embeds every stored paper with the active model before it ends.
 * - Databases: embedded PGlite in a fresh temporary DATA_DIR, and, with --database-url, a fresh database
 *   `radar_bench_ingest` (or `--database-name NAME`) on that server (dropped at the end).
 * - `--rerun`: the same file again on the same database (nothing may be added or lose its vector).
 * - `--with-model`: then a second file of other works, 40 % of N lines: the corpus grows by less than the
 *   refit factor, so this is an installation with an active model (store, vectors on that model).
 * - Printed: papers a second (new stored rows with vectors on the active model, counted in the database
 *   afterwards) from the start of each command to the store's summary line (every new row is written
 *   with its vector in the insert; counted only when the command embedded no paper after it) and to the
 *   command's end (the vector index built after the store included), the target next to both, the command's
 *   own lines with the time of the store, the fit and the vectors, the process's peak RSS and CPU
 *   time, and with PostgreSQL on this machine the server's CPU time for the bench's database (read
 *   from /proc; `--no-server-cpu` leaves it out).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runRadarCommand } from '../packages/cli/src/radar-command';
import { openDatabase, sql } from '../packages/db/src';
import { seededRandom } from '../packages/shared/src';

const TARGET_PER_SECOND = 1_000;

const { values: args } = parseArgs({
  options: {
    n: { type: 'string', default: '100000' },
    'database-url': { type: 'string' },
    mode: { type: 'string', default: 'both' },
    'keep-file': { type: 'boolean', default: false },
    'database-name': { type: 'string', default: 'radar_bench_ingest' },
    'no-server-cpu': { type: 'boolean', default: false },
    rerun: { type: 'boolean', default: false },
    'with-model': { type: 'boolean', default: false },
  },
});
const N = Number(args.n);
const DATABASE_NAME = args['database-name'] as string;
if (!/^[a-z_][a-z0-9_]*$/.test(DATABASE_NAME)) throw new Error('--database-name must be a plain lower-case name');
if (!Number.isInteger(N) || N < 1) throw new Error('--n must be a positive integer');
const modes = args.mode === 'both' ? ['embedded', 'postgres'] : [args.mode ?? 'embedded'];
if (modes.includes('postgres') && !args['database-url']) {
  if (args.mode === 'postgres') throw new Error('--mode postgres needs --database-url');
  modes.splice(modes.indexOf('postgres'), 1);
}

// ---------------------------------------------------------------------------------------------- the file

// Each work is made from its own seed, so a line repeating work i repeats it exactly.
let random = seededRandom(35);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

const STEMS = (
  'analys model network learn protein cell gene quantum materi catalys polymer graph optim estimat ' +
  'signal imag sensor batter electrod climat ocean soil crop immun tumor neuron brain languag robot ' +
  'control fluid turbul plasma galax stellar magnet spin phonon photon laser fiber circuit devic ' +
  'algorithm complex distribut stochast bayes infer regress causal survey cohort clinic therap drug ' +
  'vaccin pathogen bacteri viral enzym metabol lipid membran tissu stem organ kidney cardi vascul ' +
  'lung liver bone muscl skin retin cortex synap memory behavior econom market financ polic urban ' +
  'transport energ solar wind hydrogen carbon nitrogen water river forest species evolut genom ' +
  'sequenc transcript epigen chromat ribosom structur dynam kinet thermodynam entrop symmetr topolog'
).split(/\s+/);
const SUFFIXES = ['', 'ic', 'al', 'ation', 'ing', 'ed', 'ity', 'ive', 'ism', 'ology', 'ous', 'ance', 'er', 'ics'];
const COMMON =
  'the of and in to a for with on by we from this that is are was were an as at be which these our results show using based between than'.split(
    ' ',
  );
// About 1,700 distinct content words, drawn with a skewed (Zipf-like) frequency.
const VOCABULARY = STEMS.flatMap((stem) => SUFFIXES.map((suffix) => `${stem}${suffix}`));
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 2.2)] as string;
function sentence(length: number): string[] {
  const words: string[] = [];
  for (let i = 0; i < length; i++) words.push(random() < 0.38 ? pick(COMMON) : word());
  return words;
}

const GIVEN =
  'Wei Li Jing Ana Maria John David Sara Yuki Hiroshi Olga Ivan Fatima Omar Lucas Emma Noah Mia Chen Xin Priya Arjun Elena Pierre Anna Jan Kofi Amara Diego Sofia'.split(
    ' ',
  );
const FAMILY =
  'Wang Zhang Liu Chen Smith Garcia Müller Rossi Kim Park Tanaka Sato Ivanov Novak Silva Santos Okafor Mensah Patel Singh Nguyen Tran Dubois Martin Jensen Larsen Cohen Haddad Costa Moreau'.split(
    ' ',
  );
const INSTITUTIONS = Array.from({ length: 120 }, (_, i) => `${pick(FAMILY)} Institute of ${pick(STEMS)}ics ${i}`);
const FIELDS = [
  { id: 13, name: 'Biochemistry, Genetics and Molecular Biology', sub: 1312 },
  { id: 17, name: 'Computer Science', sub: 1702 },
  { id: 25, name: 'Materials Science', sub: 2505 },
  { id: 31, name: 'Physics and Astronomy', sub: 3104 },
  { id: 27, name: 'Medicine', sub: 2713 },
  { id: 16, name: 'Chemistry', sub: 1605 },
  { id: 23, name: 'Environmental Science', sub: 2305 },
];
const VENUES = Array.from({ length: 300 }, (_, i) => ({
  name: `Journal of ${word()[0]?.toUpperCase()}${word().slice(1)} ${pick(['Research', 'Letters', 'Reviews', 'Science', 'Reports'])} ${i}`,
  issn: `${String(1000 + i).padStart(4, '0')}-${String(2000 + ((i * 7) % 8000)).padStart(4, '0')}`,
  publisher: pick(['Elsevier', 'Springer', 'Wiley', 'ACS', 'IOP', 'MDPI', 'Nature Portfolio']),
}));

function invertedIndex(words: string[]): Record<string, number[]> {
  const index: Record<string, number[]> = {};
  words.forEach((value, position) => {
    const positions = index[value];
    if (positions) positions.push(position);
    else index[value] = [position];
  });
  return index;
}

/** Work i, the same on every call; `longer` adds a sentence to its abstract (a corrected record). */
function work(i: number, longer = false) {
  random = seededRandom(1_000_003 + i);
  const field = pick(FIELDS);
  const venue = pick(VENUES);
  const day = new Date(Date.UTC(2025, 0, 1) + between(0, 364) * 86_400_000).toISOString().slice(0, 10);
  const title = sentence(between(8, 16)).join(' ');
  const authorships = Array.from({ length: between(1, 9) }, (_, a) => ({
    author: {
      id: `https://openalex.org/A${5_000_000_000 + ((i * 7 + a * 131) % 400_000)}`,
      display_name: `${pick(GIVEN)} ${pick(FAMILY)}`,
    },
    institutions: [{ display_name: pick(INSTITUTIONS) }],
  }));
  const topic = sentence(3).join(' ');
  const keywords = Array.from({ length: between(0, 5) }, () => ({ display_name: `${word()} ${word()}` }));
  const abstract = sentence(between(120, 260));
  if (longer) abstract.push(...sentence(30));
  return {
    id: `https://openalex.org/W${4_000_000_000 + i}`,
    doi: `https://doi.org/10.5555/bench.${i}`,
    title: title.charAt(0).toUpperCase() + title.slice(1),
    publication_date: day,
    publication_year: 2025,
    type: 'article',
    authorships,
    primary_location: {
      landing_page_url: `https://doi.org/10.5555/bench.${i}`,
      source: {
        display_name: venue.name,
        issn_l: venue.issn,
        issn: [venue.issn],
        host_organization_name: venue.publisher,
        type: 'journal',
      },
    },
    primary_topic: {
      display_name: topic,
      field: { id: `https://openalex.org/fields/${field.id}`, display_name: field.name },
      subfield: { id: `https://openalex.org/subfields/${field.sub}` },
    },
    keywords,
    abstract_inverted_index: invertedIndex(abstract),
  };
}

/** `count` lines of works numbered from `first` (a second file of other works starts after the first's). */
async function writeFile(
  file: string,
  count: number,
  first = 0,
): Promise<{ unique: number; updates: number; repeats: number }> {
  const out = fs.createWriteStream(file);
  const lines = seededRandom(35 + first);
  let unique = 0;
  let updates = 0;
  let repeats = 0;
  for (let line = 0; line < count; line++) {
    const roll = lines();
    let record: ReturnType<typeof work>;
    if (unique > 100 && roll < 0.02) {
      // The same DOI again with a longer abstract: found by its DOI and merged (the stored abstract stays).
      record = work(first + Math.floor(lines() * unique), true);
      updates++;
    } else if (unique > 100 && roll < 0.03) {
      // A line seen before, unchanged: nothing new.
      record = work(first + Math.floor(lines() * unique));
      repeats++;
    } else {
      record = work(first + unique++);
    }
    if (!out.write(`${JSON.stringify(record)}\n`))
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { unique, updates, repeats };
}

// ----------------------------------------------------------------------------------------------- the runs

const workDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'radar-bench-ingest-'));
const file = path.join(workDir, 'openalex-works.jsonl');
const describeFile = async (
  name: string,
  path: string,
  count: number,
  written: Awaited<ReturnType<typeof writeFile>>,
) =>
  process.stdout.write(
    `${name}: ${count} lines of OpenAlex works (JSON Lines, ${((await fsp.stat(path)).size / 1e6).toFixed(0)} MB): ${written.unique} distinct works, ` +
      `${written.updates} same-DOI lines with a new abstract, ${written.repeats} other repeats\n`,
  );
await describeFile('file', file, N, await writeFile(file, N));
// --with-model: works the first file does not have, 40 % of its lines: the corpus grows by less than the
// refit factor (1.5), so they are stored and embedded on the model the first run fitted, as on an
// installation that has one.
const MORE = Math.round(N * 0.4);
const moreFile = path.join(workDir, 'openalex-works-more.jsonl');
if (args['with-model']) await describeFile('second file', moreFile, MORE, await writeFile(moreFile, MORE, N));

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 200);

async function freshPostgres(base: string): Promise<string> {
  const admin = await openDatabase({ databaseUrl: base, dataDir: workDir, poolMax: 1, migrate: false });
  await admin.pool.query(`DROP DATABASE IF EXISTS ${DATABASE_NAME} WITH (FORCE)`);
  await admin.pool.query(`CREATE DATABASE ${DATABASE_NAME}`);
  await admin.close();
  const url = new URL(base);
  url.pathname = `/${DATABASE_NAME}`;
  return url.toString();
}

async function dropPostgres(base: string): Promise<void> {
  const admin = await openDatabase({ databaseUrl: base, dataDir: workDir, poolMax: 1, migrate: false });
  await admin.pool.query(`DROP DATABASE IF EXISTS ${DATABASE_NAME} WITH (FORCE)`);
  await admin.close();
}

/**
 * CPU time of the PostgreSQL server processes working for the bench's database (its backends, parallel
 * workers and autovacuum): on this shared machine wall times swing with the load, CPU-seconds much less.
 * Read from /proc, so only for a server on this machine; each process's last reading counts (a backend
 * ends when the command closes its pool, so it is sampled while it runs).
 */
function serverCpuSampler(base: string) {
  const ticks = new Map<number, number>();
  const tickSeconds = 1 / 100;
  let admin: Awaited<ReturnType<typeof openDatabase>> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const sample = async () => {
    if (!admin) return;
    const result = await admin.pool.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [DATABASE_NAME],
    );
    for (const { pid } of result.rows) {
      try {
        const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after "pid (comm) ".
        ticks.set(pid, Number(fields[11]) + Number(fields[12]));
      } catch {
        // The process ended between the query and the read.
      }
    }
  };
  return {
    async start() {
      admin = await openDatabase({ databaseUrl: base, dataDir: workDir, poolMax: 1, migrate: false });
      timer = setInterval(() => void sample().catch(() => {}), 250);
    },
    /** The CPU-seconds of the last sample (at most 250 ms old). */
    current(): number {
      let total = 0;
      for (const value of ticks.values()) total += value;
      return total * tickSeconds;
    },
    async stop(): Promise<number> {
      if (timer) clearInterval(timer);
      await sample().catch(() => {});
      await admin?.close();
      return this.current();
    },
  };
}

interface Counted {
  papers: number;
  vectors: number;
}

async function countStored(databaseUrl: string | undefined, dataDir: string): Promise<Counted> {
  const database = await openDatabase({ databaseUrl, dataDir, poolMax: 1, migrate: false });
  try {
    const counted = await database.db.execute<{ papers: string; vectors: string }>(sql`
      SELECT count(*)::text AS papers,
             count(*) FILTER (WHERE embedding IS NOT NULL
               AND embedding_model_id = (SELECT id FROM radar.embedding_models WHERE is_active))::text AS vectors
      FROM radar.papers`);
    const row = counted.rows[0];
    return { papers: Number(row?.papers ?? 0), vectors: Number(row?.vectors ?? 0) };
  } finally {
    await database.close();
  }
}

/**
 * One timed `pnpm radar ingest openalex --file` on the mode's database; prints its output, the rows it
 * added with vectors on the active model a second, and the CPU it took.
 */
async function timedIngest(
  title: string,
  ingestFile: string,
  target: { mode: string; databaseUrl: string | undefined; dataDir: string },
  before: Counted,
): Promise<Counted> {
  const serverCpu =
    target.databaseUrl && !args['no-server-cpu'] ? serverCpuSampler(args['database-url'] as string) : undefined;
  await serverCpu?.start();
  const env: Record<string, string> = {
    DATA_DIR: target.dataDir,
    ...(target.databaseUrl ? { DATABASE_URL: target.databaseUrl } : {}),
    LOG_LEVEL: 'error',
  };
  peakRss = process.memoryUsage().rss;
  const lines: string[] = [];
  /** When the store's summary line came: every new row is stored by then, with its vector in the insert. */
  let storedAt: number | undefined;
  const loadBefore = os.loadavg()[0] ?? 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const code = await runRadarCommand(['ingest', 'openalex', '--file', ingestFile], {
    env,
    out: (line) => {
      // With each line, the CPU-seconds so far: this process's, and the server's with PostgreSQL.
      const cpuSoFar = process.cpuUsage(cpuBefore);
      const cpuText = `cpu ${((cpuSoFar.user + cpuSoFar.system) / 1e6).toFixed(1).padStart(5)}${serverCpu ? ` + server ${serverCpu.current().toFixed(1).padStart(5)}` : ''}`;
      if (storedAt === undefined && /^\S+: added \d+/.test(line)) storedAt = (performance.now() - started) / 1000;
      lines.push(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  [${cpuText}]  ${line}`);
    },
    err: (line) => lines.push(line),
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const serverCpuSeconds = await serverCpu?.stop();
  if (code !== 0) throw new Error(`ingest failed (${code}):\n${lines.join('\n')}`);

  const after = await countStored(target.databaseUrl, target.dataDir);
  const added = after.vectors - before.vectors;
  const rate = added / seconds;
  // Papers the command embedded after the store (the re-embedding's "to embed" count) had no vector at
  // the store's end; the rate up to it counts only when there were none.
  const embeddedAfter = Number(
    lines.join('\n').match(/to embed:\s+\d+ user profiles, (\d+) papers/)?.[1] ?? Number.NaN,
  );
  const storedRate = storedAt !== undefined && embeddedAfter === 0 ? added / storedAt : undefined;
  const postgres = target.mode === 'postgres';
  process.stdout.write(`\n${postgres ? 'PostgreSQL' : 'embedded PGlite'}, ${title}:\n`);
  for (const line of lines) process.stdout.write(`  ${line}\n`);
  process.stdout.write(
    `  stored ${after.papers} papers (${after.papers - before.papers} new), ${after.vectors} with a vector on the active model, in ${seconds.toFixed(1)} s; load average ${loadBefore.toFixed(1)} -> ${os.loadavg()[0]?.toFixed(1)}\n` +
      (storedRate === undefined
        ? `  => no rate to the store's end: papers were embedded after it, or the store's line was not found\n`
        : `  => ${storedRate.toFixed(0)} papers/s to new stored rows with vectors, from the command's start to the store's summary line at ${storedAt?.toFixed(1)} s (target >= ${TARGET_PER_SECOND}/s: ${storedRate >= TARGET_PER_SECOND ? 'met' : 'NOT met'})\n`) +
      `  => ${rate.toFixed(0)} papers/s for the whole command, the vector index built after the store included (target >= ${TARGET_PER_SECOND}/s: ${rate >= TARGET_PER_SECOND ? 'met' : 'NOT met'}); peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MiB\n` +
      `  this process's CPU time ${cpuSeconds.toFixed(1)} s (${(added / cpuSeconds).toFixed(0)} papers per CPU-second; ${postgres ? "the server's CPU is not in it" : 'PGlite runs in this process, so this is all of the work'})\n` +
      (serverCpuSeconds === undefined
        ? ''
        : `  the PostgreSQL server's CPU time for this database ${serverCpuSeconds.toFixed(1)} s; both together ${(cpuSeconds + serverCpuSeconds).toFixed(1)} s (${(added / (cpuSeconds + serverCpuSeconds)).toFixed(0)} papers per CPU-second)\n`),
  );
  return after;
}

for (const mode of modes) {
  const dataDir = path.join(workDir, `data-${mode}`);
  const databaseUrl = mode === 'postgres' ? await freshPostgres(args['database-url'] as string) : undefined;
  const target = { mode, databaseUrl, dataDir };
  const fresh = await timedIngest(`a fresh installation (store, first fit, vectors), N = ${N}`, file, target, {
    papers: 0,
    vectors: 0,
  });
  if (args.rerun) {
    // The same file again: nothing is added or changed, every row keeps its vector.
    const again = await timedIngest('the same file again', file, target, fresh);
    if (again.papers !== fresh.papers || again.vectors !== fresh.vectors)
      throw new Error(`the same file again changed the rows: ${JSON.stringify({ fresh, again })}`);
  }
  if (args['with-model']) {
    await timedIngest(
      `an installation with an active model (store, vectors on that model), ${MORE} lines of other works`,
      moreFile,
      target,
      await countStored(databaseUrl, dataDir),
    );
  }
  if (mode === 'postgres') await dropPostgres(args['database-url'] as string);
  await fsp.rm(dataDir, { recursive: true, force: true });
}

clearInterval(sampler);
process.stdout.write(
  `\nload average at the end: ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}\n`,
);
if (args['keep-file']) process.stdout.write(`file kept: ${file}\n`);
else await fsp.rm(workDir, { recursive: true, force: true });
