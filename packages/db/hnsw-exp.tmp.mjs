// Temporary experiment (not committed): recall@20 and latency of HNSW walks per index and ef_search.
import pg from 'pg';
const [, , indexToKeep, efList = '100,200,400', windows = 'none,30,7'] = process.argv;
const client = new pg.Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/radar_bench_1000000_d128' });
await client.connect();
const { rows: users } = await client.query(`SELECT profile_embedding::text AS v FROM radar.users WHERE email LIKE 'bench-%' ORDER BY id LIMIT 30`);
const { rows: idx } = await client.query(`SELECT indexname FROM pg_indexes WHERE tablename='papers' AND indexdef LIKE '%hnsw%'`);
const dist = (v) => `(embedding::vector(128)) <=> '${v}'::vector(128)`;
for (const w of windows.split(',')) {
  const filter = w === 'none' ? '' : `AND published_at >= current_date - ${Number(w)}`;
  const exact = [];
  for (const u of users) {
    await client.query('BEGIN'); await client.query('SET LOCAL enable_indexscan = off'); await client.query('SET LOCAL jit = off');
    const r = await client.query(`SELECT id FROM radar.papers WHERE embedding_model_id = 1 ${filter} ORDER BY (${dist(u.v)}) + 0 LIMIT 20`);
    await client.query('COMMIT');
    exact.push(new Set(r.rows.map((x) => x.id)));
  }
  for (const ef of efList.split(',')) {
    let hit = 0; const times = [];
    for (const [i, u] of users.entries()) {
      await client.query('BEGIN');
      for (const other of idx) if (other.indexname !== indexToKeep) await client.query(`DROP INDEX radar.${other.indexname}`);
      await client.query(`SET LOCAL hnsw.ef_search = ${Number(ef)}`); await client.query(`SET LOCAL hnsw.iterative_scan = relaxed_order`);
      await client.query('SET LOCAL enable_sort = off'); await client.query('SET LOCAL jit = off');
      const t = performance.now();
      const r = await client.query(`WITH c AS MATERIALIZED (SELECT id, ${dist(u.v)} AS d FROM radar.papers WHERE embedding_model_id = 1 ${filter} ORDER BY ${dist(u.v)} LIMIT 20) SELECT id FROM c ORDER BY d`);
      times.push(performance.now() - t);
      await client.query('ROLLBACK');
      hit += r.rows.filter((x) => exact[i].has(x.id)).length;
    }
    times.sort((a, b) => a - b);
    console.log(`${indexToKeep} window=${w} ef=${ef} recall=${(hit / (20 * users.length)).toFixed(3)} p50=${times[Math.floor(times.length / 2)].toFixed(1)} p95=${times[Math.floor(times.length * 0.95)].toFixed(1)} ms`);
  }
}
await client.end();
