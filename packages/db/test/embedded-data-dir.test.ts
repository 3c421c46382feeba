import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedDatabaseOpenError, embeddedDataPath, startEmbeddedPostgres } from '../src';
import { testDatabaseUrl } from '../src/testing';

/**
 * A database in a data directory (the app's, the worker's, the CLI's) runs PGlite in a worker thread of its
 * own, served on the same socket as an in-memory one. The embedded mode's own code, so it runs in the
 * embedded mode only.
 */
const dirs: string[] = [];
const makeDataDir = async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-data-dir-'));
  dirs.push(dir);
  return dir;
};

afterAll(async () => {
  await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

describe.skipIf(testDatabaseUrl())('an embedded database in a data directory', () => {
  it('is served from its own thread: queries, its memory, a stop that releases the directory', async () => {
    const dataDir = await makeDataDir();
    const embedded = await startEmbeddedPostgres({ dataDir });
    const client = new pg.Client(embedded.connectionConfig);
    await client.connect();
    try {
      await client.query('CREATE TABLE kept (value int)');
      await client.query('INSERT INTO kept VALUES (35)');
      // Its WebAssembly memory is the thread's, reported to this one through a shared slot.
      expect(embedded.memoryBytes()).toBeGreaterThan(16 * 1024 * 1024);
      await expect(embedded.suspend()).rejects.toThrow('in-memory');
    } finally {
      await client.end();
      await embedded.stop();
    }

    // Stopped: the directory can be opened again, with what was written.
    const again = await startEmbeddedPostgres({ dataDir });
    const reader = new pg.Client(again.connectionConfig);
    await reader.connect();
    try {
      expect((await reader.query('SELECT value FROM kept')).rows).toEqual([{ value: 35 }]);
    } finally {
      await reader.end();
      await again.stop();
    }
  });

  it('refuses files it cannot open with what to do next, and lets the directory go', async () => {
    const dataDir = await makeDataDir();
    await fs.mkdir(embeddedDataPath(dataDir), { recursive: true });
    await fs.writeFile(path.join(embeddedDataPath(dataDir), 'PG_VERSION'), '99\n');
    const refused = await startEmbeddedPostgres({ dataDir }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmbeddedDatabaseOpenError);
    expect((refused as Error).message).toContain('restore DATA_DIR from a backup');

    // The lock went with the failure: once the files are gone, the same directory opens.
    await fs.rm(embeddedDataPath(dataDir), { recursive: true, force: true });
    const fresh = await startEmbeddedPostgres({ dataDir });
    await fresh.stop();
  });
});
