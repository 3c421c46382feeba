/**
 * `pnpm bench:source-flow [--papers 100000] [--database-url URL]`: what `pnpm radar status` and the
 * `radar_source_*` gauges cost on a large corpus, and the preprint-DOI lookup ingest makes per paper.
 *
 * - A fresh database `radar_bench_flow_<n>` on the PostgreSQL server of --database-url (default: the
 *   local one), migrated, then N papers of 30 sources created over the last 120 days (so about 6% fall
 *   in the last week), a tenth of them with a preprint DOI in source_ids, and N/5 news items; ANALYZE.
 * - Median and p95 of 50 calls of SourceStateRepository.countAddedBySource (both statements) and of
 *   IngestPaperRepository.findDedupeCandidates for a new paper (the lookup before every paper write),
 *   plus EXPLAIN (ANALYZE, BUFFERS) of the papers count and of a preprint-DOI lookup.
 * - A second load puts all N papers in the last week (a fresh install's first bulk import), the worst
 *   case for the week's range scan, and measures again.
 */
import { parseArgs } from 'node:util';
import { IngestPaperRepository, openDatabase, SourceStateRepository } from '../packages/db/src';

const { values } = parseArgs({
  options: { papers: { type: 'string', default: '100000' }, 'database-url': { type: 'string' } },
});
const papers = Number(values.papers);
const serverUrl = values['database-url'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `radar_bench_flow_${papers}`;
const DAY = 86_400_000;

async function timed(label: string, call: () => Promise<unknown>) {
  const times: number[] = [];
  for (let run = 0; run < 50; run++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`${label}: median ${times[25]?.toFixed(2)} ms, p95 ${times[47]?.toFixed(2)} ms`);
}

async function main() {
  const admin = await openDatabase({ databaseUrl: serverUrl, dataDir: '/tmp', poolMax: 1, migrate: false });
  await admin.pool.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.pool.query(`CREATE DATABASE ${name}`);
  await admin.close();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '/tmp', poolMax: 2, migrate: true });
  try {
    const load = async (days: number) => {
      await database.pool.query('TRUNCATE radar.papers, radar.news_items CASCADE');
      await database.pool.query(
        `INSERT INTO radar.papers (title, url, source, created_at, source_ids)
         SELECT 'Paper ' || i, 'https://example.org/p/' || i, 'source-' || (i % 30),
           now() - make_interval(secs => random() * $2 * 86400),
           CASE WHEN i % 10 = 0 THEN jsonb_build_object('preprintDoi', '10.1101/2024.01.01.' || i) ELSE '{}'::jsonb END
         FROM generate_series(1, $1) i`,
        [papers, days],
      );
      const institute = await database.pool.query(
        `INSERT INTO radar.institutes (name) VALUES ('Bench') ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id`,
      );
      await database.pool.query(
        `INSERT INTO radar.news_items (title, url, url_normalized, institute_id, source, created_at)
         SELECT 'News ' || i, 'https://example.org/n/' || i, 'example.org/n/' || i, $3, 'news-' || (i % 10),
           now() - make_interval(secs => random() * $2 * 86400)
         FROM generate_series(1, $1) i`,
        [Math.round(papers / 5), days, institute.rows[0].id],
      );
      await database.pool.query('ANALYZE radar.papers; ANALYZE radar.news_items');
    };
    const states = new SourceStateRepository(database.db);
    const ingest = new IngestPaperRepository(database.db);
    const explain = async (statement: string, parameters: unknown[]) => {
      const plan = await database.pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${statement}`, parameters);
      for (const row of plan.rows) console.log(`    ${row['QUERY PLAN']}`);
    };
    const countSql = (table: string) =>
      `SELECT source, count(*) FILTER (WHERE created_at >= $1::timestamptz)::int, count(*)::int
       FROM radar.${table} WHERE created_at >= $2::timestamptz GROUP BY source`;

    for (const days of [120, 7]) {
      console.log(`\n${papers} papers and ${papers / 5} news items created over the last ${days} days`);
      await load(days);
      const now = Date.now();
      const day = new Date(now - DAY);
      const week = new Date(now - 7 * DAY);
      await timed('countAddedBySource (papers and news)', () => states.countAddedBySource(day, week));
      await timed('findDedupeCandidates of a new paper (DOI, preprint DOI, URL, title key)', () =>
        ingest.findDedupeCandidates({
          dois: ['10.1101/2099.01.01.000001'],
          urlNormalized: 'example.org/new',
          titleAuthorKey: 'a new paper|author',
        }),
      );
      console.log('  EXPLAIN papers count:');
      await explain(countSql('papers'), [day.toISOString(), week.toISOString()]);
      console.log('  EXPLAIN preprint DOI lookup:');
      await explain(
        `SELECT id FROM radar.papers WHERE lower(doi) IN ($1) OR lower(source_ids ->> 'preprintDoi') IN ($1) LIMIT 20`,
        ['10.1101/2024.01.01.5000'],
      );
    }
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
