/**
 * `pnpm bench:ingest [--n 100000] [--database-url URL] [--mode both|postgres|embedded] [--keep-file]`:
 * issue 35, bulk ingest of a large file (docs/benchmarks.md, "Issue 35: bulk ingest from a file").
 *
 * - File: N OpenAlex works as JSON Lines (what `pnpm radar ingest openalex --file` reads, as an OpenAlex
 *   snapshot or a saved list of pages gives it), made here with a seeded generator: titles of 8-16 words
 *   and abstracts of 120-260 words (as an inverted index, like OpenAlex) from a varied vocabulary,
 *   DOIs, 1-9 authors with OpenAlex ids and affiliations, 300 venues with ISSNs, topics of several
 *   fields, publication dates over one year. About 2 % of the lines repeat an earlier work's DOI with a
 *   longer abstract (a same-DOI update) and 1 % repeat one unchanged (skipped), as real dumps do.
 * - Run: the product's own command, `pnpm radar ingest openalex --file FILE`, in this process
 *   (runRadarCommand): it stores the papers and, with no worker running, fits the built-in embedding
 *   model and embeds every stored paper with the active model before it ends.
 * - Databases: embedded PGlite in a fresh temporary DATA_DIR, and, with --database-url, a fresh database
 *   `radar_bench_ingest` on that server (dropped at the end).
 * - Printed: papers a second from the start of the command to its end (stored rows with vectors on the
 *   active model, counted in the database afterwards), the target next to it, the time of the store
 *   and of the vectors apart, and the process's peak RSS.
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
  },
});
const N = Number(args.n);
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

async function writeFile(file: string): Promise<{ unique: number; updates: number; repeats: number }> {
  const out = fs.createWriteStream(file);
  const lines = seededRandom(35);
  let unique = 0;
  let updates = 0;
  let repeats = 0;
  for (let line = 0; line < N; line++) {
    const roll = lines();
    let record: ReturnType<typeof work>;
    if (unique > 100 && roll < 0.02) {
      // The same DOI again with a longer abstract: merged into the stored row (an update).
      record = work(Math.floor(lines() * unique), true);
      updates++;
    } else if (unique > 100 && roll < 0.03) {
      // A line seen before, unchanged: nothing new.
      record = work(Math.floor(lines() * unique));
      repeats++;
    } else {
      record = work(unique++);
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
const written = await writeFile(file);
const size = (await fsp.stat(file)).size;
process.stdout.write(
  `file: ${N} lines of OpenAlex works (JSON Lines, ${(size / 1e6).toFixed(0)} MB): ${written.unique} distinct works, ` +
    `${written.updates} same-DOI lines with a new abstract, ${written.repeats} other repeats\n`,
);

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 200);

async function freshPostgres(base: string): Promise<string> {
  const admin = await openDatabase({ databaseUrl: base, dataDir: workDir, poolMax: 1, migrate: false });
  await admin.pool.query('DROP DATABASE IF EXISTS radar_bench_ingest WITH (FORCE)');
  await admin.pool.query('CREATE DATABASE radar_bench_ingest');
  await admin.close();
  const url = new URL(base);
  url.pathname = '/radar_bench_ingest';
  return url.toString();
}

async function dropPostgres(base: string): Promise<void> {
  const admin = await openDatabase({ databaseUrl: base, dataDir: workDir, poolMax: 1, migrate: false });
  await admin.pool.query('DROP DATABASE IF EXISTS radar_bench_ingest WITH (FORCE)');
  await admin.close();
}

for (const mode of modes) {
  const dataDir = path.join(workDir, `data-${mode}`);
  const databaseUrl = mode === 'postgres' ? await freshPostgres(args['database-url'] as string) : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    LOG_LEVEL: 'error',
  };
  peakRss = process.memoryUsage().rss;
  const lines: string[] = [];
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const code = await runRadarCommand(['ingest', 'openalex', '--file', file], {
    env,
    out: (line) => {
      lines.push(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  ${line}`);
    },
    err: (line) => lines.push(line),
  });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (code !== 0) throw new Error(`ingest failed (${code}):\n${lines.join('\n')}`);

  const database = await openDatabase({ databaseUrl, dataDir, poolMax: 1, migrate: false });
  const counted = await database.db.execute<{ papers: string; vectors: string }>(sql`
    SELECT count(*)::text AS papers,
           count(*) FILTER (WHERE embedding IS NOT NULL
             AND embedding_model_id = (SELECT id FROM radar.embedding_models WHERE is_active))::text AS vectors
    FROM radar.papers`);
  await database.close();
  const row = counted.rows[0] ?? { papers: '0', vectors: '0' };
  const withVectors = Number(row.vectors);
  const rate = withVectors / seconds;
  process.stdout.write(`\n${mode === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'} (N = ${N}):\n`);
  for (const line of lines) process.stdout.write(`  ${line}\n`);
  process.stdout.write(
    `  stored ${row.papers} papers, ${withVectors} with a vector on the active model, in ${seconds.toFixed(1)} s\n` +
      `  => ${rate.toFixed(0)} papers/s to stored rows with vectors (target >= ${TARGET_PER_SECOND}/s: ${rate >= TARGET_PER_SECOND ? 'met' : 'NOT met'}); peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MiB\n` +
      `  this process's CPU time ${cpuSeconds.toFixed(1)} s (${(withVectors / cpuSeconds).toFixed(0)} papers per CPU-second; ${mode === 'postgres' ? "the server's CPU is not in it" : 'PGlite runs in this process, so this is all of the work'})\n`,
  );
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
