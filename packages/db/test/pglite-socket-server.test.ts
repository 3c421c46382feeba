import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../src';

// Always PGlite: this is the embedded mode's own socket server, whatever TEST_DATABASE_URL says.
let embedded: EmbeddedPostgres;
const clients: pg.Client[] = [];

async function connect(): Promise<pg.Client> {
  const client = new pg.Client(embedded.connectionConfig);
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  return client;
}

beforeAll(async () => {
  embedded = await startEmbeddedPostgres({ dataDir: undefined });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.end().catch(() => {})));
  await embedded?.stop();
});

describe('embedded socket server', () => {
  it('delivers a NOTIFY to the connection that listens, not only to the one that sent it', async () => {
    const listener = await connect();
    const sender = await connect();
    const received: string[] = [];
    listener.on('notification', (message) => received.push(`${message.channel}:${message.payload}`));
    await listener.query('LISTEN radar_test');
    await sender.query("SELECT pg_notify('radar_test', 'hello')");
    await expect.poll(() => received, { timeout: 2_000 }).toEqual(['radar_test:hello']);
  });

  it('never mixes up concurrent parameterised statements of different connections', async () => {
    const connections = await Promise.all([connect(), connect(), connect(), connect()]);
    const runs = connections.map(async (client, index) => {
      for (let i = 0; i < 100; i++) {
        // Different statement shapes per connection: an interleaved Parse would bind the wrong one.
        if (index % 2 === 0) {
          const { rows } = await client.query<{ sum: number }>('SELECT $1::int + $2::int AS sum', [i, index]);
          expect(rows[0]?.sum).toBe(i + index);
        } else {
          const { rows } = await client.query<{ text: string }>("SELECT $1::text || '-' || $2::text AS text", [
            `c${index}`,
            String(i),
          ]);
          expect(rows[0]?.text).toBe(`c${index}-${i}`);
        }
      }
    });
    await Promise.all(runs);
  });

  it('lets every connection use a named statement of the shared session, parsed once', async () => {
    const connections = await Promise.all([connect(), connect(), connect()]);
    const named = (client: pg.Client, n: number) =>
      client.query<{ doubled: number }>({
        name: 'socket-test-double',
        text: 'SELECT $1::int * 2 AS doubled',
        values: [n],
      });
    // Each connection's first use sends a Parse of the same name; the session already holds it after the first.
    const results = await Promise.all(connections.map((client, index) => named(client, index + 1)));
    expect(results.map((result) => result.rows[0]?.doubled)).toEqual([2, 4, 6]);
    expect((await named(connections[2] as pg.Client, 21)).rows[0]?.doubled).toBe(42);
    const [{ count }] = (
      await (connections[0] as pg.Client).query<{ count: string }>(
        "SELECT count(*) FROM pg_prepared_statements WHERE name = 'socket-test-double'",
      )
    ).rows as [{ count: string }];
    expect(count).toBe('1');
    // The same name with another text is still refused, as PostgreSQL refuses it.
    const other = await connect();
    await expect(
      other.query({ name: 'socket-test-double', text: 'SELECT $1::int * 3 AS tripled', values: [1] }),
    ).rejects.toThrow(/already exists/);
    expect((await other.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one).toBe(1);
  });

  it('runs a transaction without statements of other connections in between', async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    await a.query('CREATE TABLE IF NOT EXISTS public.tx_probe (n int)');
    await a.query('BEGIN');
    await a.query('INSERT INTO public.tx_probe VALUES (1)');
    // b's statement must wait until a commits, so it sees the committed row.
    const bCount = b.query<{ count: string }>('SELECT count(*) FROM public.tx_probe');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await a.query('INSERT INTO public.tx_probe VALUES (2)');
    await a.query('COMMIT');
    expect((await bCount).rows[0]?.count).toBe('2');
  });

  it('rolls back the transaction of a connection that drops, and others carry on', async () => {
    const dropping = await connect();
    const other = await connect();
    await other.query('CREATE TABLE IF NOT EXISTS public.drop_probe (n int)');
    await dropping.query('BEGIN');
    await dropping.query('INSERT INTO public.drop_probe VALUES (1)');
    const waiting = other.query<{ count: string }>('SELECT count(*) FROM public.drop_probe');
    dropping.connection.stream.destroy();
    expect((await waiting).rows[0]?.count).toBe('0');
  });
});
