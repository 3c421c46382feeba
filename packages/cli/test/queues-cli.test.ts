import { createQueue, createWorker, type JobQueue } from '@radar/jobs';
import { waitForJobState } from '@radar/jobs/testing';
import { type JobPayload, QUEUE_NAMES, type QueueName } from '@radar/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Installation, openInstallation } from './installation';
import { runRadar } from './run-radar';

/**
 * `pnpm radar queues ...` on real jobs: a worker of this test fails some and completes others in two
 * of the installation's queues, then stops, and the commands count, retry and remove them. Redis when
 * the run has REDIS_URL (with TEST_DATABASE_URL), else BullMQ's PostgreSQL backend (PostgreSQL or the
 * embedded database).
 */

let installation: Installation;
let maintenance: JobQueue<'maintenance'>;
let embeddings: JobQueue<'embeddings'>;

const radar = (...args: string[]) => runRadar(['queues', ...args], installation.env);

interface Counts {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

async function countsByQueue(): Promise<Record<string, Counts>> {
  const run = await radar('status', '--json');
  expect(run.stderr).toBe('');
  const status = JSON.parse(run.stdout) as { queues: Counts[] };
  return Object.fromEntries(status.queues.map((queue) => [queue.name, queue]));
}

/**
 * Adds jobs (valid payloads of the queue) and runs them to their end with one attempt each: the `failing`
 * ones, named 'fail', fail; the `passing` ones complete. The test's worker runs no real processor.
 */
async function finishJobs<N extends QueueName>(
  queue: JobQueue<N>,
  payload: JobPayload<N>,
  passing: number,
  failing: number,
): Promise<void> {
  const worker = createWorker(installation.queues, queue.name, async (job) => {
    if (job.name === 'fail') throw new Error('planned failure');
    return 'done';
  });
  try {
    const jobs = await queue.addBulk(
      [...Array(passing).fill('pass'), ...Array(failing).fill('fail')].map((name: string) => ({
        name,
        data: payload,
        opts: { attempts: 1 },
      })),
    );
    for (const job of jobs) await waitForJobState(queue, String(job.id), job.name === 'fail' ? 'failed' : 'completed');
  } finally {
    await worker.close();
  }
}

beforeAll(async () => {
  installation = await openInstallation();
  maintenance = createQueue(installation.queues, QUEUE_NAMES.maintenance);
  embeddings = createQueue(installation.queues, QUEUE_NAMES.embeddings);
  await finishJobs(maintenance, { task: 'sync-sources' }, 3, 2);
  await finishJobs(embeddings, { task: 'maintain' }, 0, 1);
}, 60_000);

afterAll(async () => {
  await maintenance?.close();
  await embeddings?.close();
  await installation?.close();
});

const backend = () => (installation.env.REDIS_URL ? 'redis' : 'postgres');

describe('pnpm radar queues', () => {
  it('status: counts of every queue and the backend, as a table or one JSON document', async () => {
    const text = await radar('status');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      new RegExp(`^backend: ${backend()} \\(.*\\), prefix ${installation.env.QUEUE_PREFIX}$`, 'm'),
    );
    expect(text.stdout).toMatch(/^QUEUE\s+WAITING\s+ACTIVE\s+DELAYED\s+FAILED\s+COMPLETED$/m);
    expect(text.stdout).toMatch(/^maintenance\s+0\s+0\s+0\s+2\s+3$/m);
    expect(text.stdout).toMatch(/^embeddings\s+0\s+0\s+0\s+1\s+0$/m);

    const json = await radar('status', '--json');
    const status = JSON.parse(json.stdout) as { backend: string; queues: Counts[] };
    expect(status.backend).toBe(backend());
    expect(status.queues.map((queue) => queue.name)).toEqual(Object.values(QUEUE_NAMES));
    expect(status.queues.find((queue) => queue.name === 'maintenance')).toEqual({
      name: 'maintenance',
      waiting: 0,
      active: 0,
      delayed: 0,
      failed: 2,
      completed: 3,
    });
  });

  it('clean: keeps jobs finished within the grace (default one day)', async () => {
    const run = await radar('clean', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ grace: '1d', removed: { completed: 0, failed: 0 } });
    expect((await countsByQueue()).maintenance).toMatchObject({ failed: 2, completed: 3 });
  });

  it('retry-failed <queue>: moves that queue failed jobs back to waiting and says how many', async () => {
    const run = await radar('retry-failed', 'maintenance');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('maintenance: 2 failed jobs retried\nretried 2 failed jobs\n');
    const counts = await countsByQueue();
    expect(counts.maintenance).toMatchObject({ waiting: 2, failed: 0, completed: 3 });
    expect(counts.embeddings).toMatchObject({ failed: 1 });
  });

  it('clean --grace 0: removes every completed and failed job, in all queues', async () => {
    const run = await radar('clean', '--grace', '0', '--json');
    expect(run.stderr).toBe('');
    const cleaned = JSON.parse(run.stdout) as {
      removed: { completed: number; failed: number };
      queues: Record<string, unknown>;
    };
    expect(cleaned.removed).toEqual({ completed: 3, failed: 1 });
    expect(cleaned.queues.maintenance).toEqual({ completed: 3, failed: 0 });
    expect(cleaned.queues.embeddings).toEqual({ completed: 0, failed: 1 });
    const counts = await countsByQueue();
    expect(counts.maintenance).toMatchObject({ waiting: 2, failed: 0, completed: 0 });
    expect(counts.embeddings).toMatchObject({ failed: 0, completed: 0 });
  });

  it('retry-failed with nothing failed: retried 0, as JSON', async () => {
    const run = await radar('retry-failed', '--json');
    expect(JSON.parse(run.stdout)).toMatchObject({ backend: backend(), retried: 0 });
  });

  it('wrong command lines: one line, exit code 1, before anything is opened', async () => {
    const unknownQueue = await radar('retry-failed', 'emails');
    expect(unknownQueue.code).toBe(1);
    expect(unknownQueue.stderr).toBe(
      `radar queues failed: no queue named "emails" (queues: ${Object.values(QUEUE_NAMES).join(', ')})\n`,
    );
    expect((await radar('clean', '--grace', 'soon')).stderr).toBe(
      'radar queues failed: --grace must be a duration like 7d, 12h, 30m, 90s or 0\n',
    );
    expect((await radar('status', '--grace', '1h')).stderr).toBe('radar queues failed: --grace is for queues clean\n');
  });
});
