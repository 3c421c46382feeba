import type { DatabaseHandle } from '@radar/db';
import { type AppQueue, createQueue, createQueueConnection, redactUrl } from '@radar/jobs';
import { DURATION_EXAMPLES, parseDuration, QUEUE_NAMES } from '@radar/shared';
import type { AppConfig } from '@radar/shared/server';
import cliProgress from 'cli-progress';
import { parseCommandLine, UsageError } from '../command-line';
import { type Out, printJson, printTable } from './output';

/**
 * The job queues of this installation (BullMQ on Redis, or on PostgreSQL in the app database; the
 * same Queue calls work on both):
 *   queues status [--json]
 *   queues retry-failed [<queue>] [--json]
 *   queues clean [<queue>] [--grace DURATION] [--json]
 */

const QUEUES: readonly string[] = Object.values(QUEUE_NAMES);
const STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;
const DEFAULT_GRACE = '1d';
const USAGE = 'usage: pnpm radar queues status | retry-failed [<queue>] | clean [<queue>] [--grace DURATION] [--json]';

export type QueuesPlan =
  | { action: 'status'; json: boolean }
  | { action: 'retry-failed'; queues: readonly string[]; json: boolean }
  | { action: 'clean'; queues: readonly string[]; grace: string; graceMs: number; json: boolean };

export function parseQueuesArgs(args: string[]): QueuesPlan {
  const { positionals, values } = parseCommandLine(args, {
    usage: USAGE,
    options: { json: { type: 'boolean' }, grace: { type: 'string' } },
    positionals: { min: 1, max: 2 },
  });
  const [action, queue] = positionals;
  const json = values.json === true;
  if (values.grace !== undefined && action !== 'clean') throw new UsageError('--grace is for queues clean');
  if (queue !== undefined && !QUEUES.includes(queue))
    throw new UsageError(`no queue named "${queue}" (queues: ${QUEUES.join(', ')})`);
  const queues = queue === undefined ? QUEUES : [queue];
  if (action === 'status' && queue === undefined) return { action, json };
  if (action === 'retry-failed') return { action, queues, json };
  if (action === 'clean') {
    const grace = values.grace ?? DEFAULT_GRACE;
    // 0: every job finished so far.
    const graceMs = parseDuration(grace, { allowZero: true });
    if (graceMs === undefined) throw new UsageError(`--grace must be a duration like ${DURATION_EXAMPLES} or 0`);
    return { action, queues, grace, graceMs, json };
  }
  throw new UsageError(USAGE);
}

/** A bar over the queues, drawn on stderr and only on a terminal (cli-progress draws nothing on a pipe). */
function queueProgress(label: string, total: number) {
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} queues | {queue}`, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { queue: '' });
  return {
    step: (queue: string) => bar.increment({ queue }),
    stop: () => bar.stop(),
  };
}

export async function runQueuesCommand(
  config: AppConfig,
  database: DatabaseHandle,
  plan: QueuesPlan,
  out: Out,
): Promise<void> {
  const connection = createQueueConnection({
    redisUrl: config.redisUrl,
    postgres: database.connectionConfig,
    prefix: config.queuePrefix,
  });
  const backend = {
    backend: connection.backend,
    location: config.redisUrl ? redactUrl(config.redisUrl) : `schema bullmq of the ${database.mode} database`,
    prefix: connection.prefix,
  };
  const names = plan.action === 'status' ? QUEUES : plan.queues;
  const queues = names.map((name) => [name, createQueue<unknown>(connection, name)] as const);
  try {
    if (plan.action === 'status') {
      const counts = await Promise.all(queues.map(async ([name, queue]) => ({ name, ...(await countJobs(queue)) })));
      if (plan.json) {
        printJson(out, { ...backend, queues: counts });
        return;
      }
      out(`backend: ${backend.backend} (${backend.location}), prefix ${backend.prefix}`);
      printTable(
        [
          ['QUEUE', ...STATES.map((state) => state.toUpperCase())],
          ...counts.map((entry) => [entry.name, ...STATES.map((state) => String(entry[state]))]),
        ],
        out,
      );
      return;
    }

    const progress = queueProgress(plan.action, queues.length);
    const results: Record<string, { retried: number } | { completed: number; failed: number }> = {};
    try {
      for (const [name, queue] of queues) {
        progress.step(name);
        if (plan.action === 'retry-failed') {
          // retryJobs answers nothing: the count is of the failed jobs just before it moved them back.
          const { failed = 0 } = await queue.getJobCounts('failed');
          if (failed > 0) await queue.retryJobs({ state: 'failed' });
          results[name] = { retried: failed };
        } else {
          const completed = await queue.clean(plan.graceMs, 0, 'completed');
          const failed = await queue.clean(plan.graceMs, 0, 'failed');
          results[name] = { completed: completed.length, failed: failed.length };
        }
      }
    } finally {
      progress.stop();
    }
    if (plan.action === 'retry-failed') {
      const retried = Object.values(results).reduce((sum, entry) => sum + ('retried' in entry ? entry.retried : 0), 0);
      if (plan.json) {
        printJson(out, { ...backend, retried, queues: results });
        return;
      }
      for (const [name, entry] of Object.entries(results))
        if ('retried' in entry && entry.retried > 0) out(`${name}: ${entry.retried} failed jobs retried`);
      out(`retried ${retried} failed job${retried === 1 ? '' : 's'}`);
      return;
    }
    const totals = { completed: 0, failed: 0 };
    for (const entry of Object.values(results)) {
      if ('completed' in entry) {
        totals.completed += entry.completed;
        totals.failed += entry.failed;
      }
    }
    if (plan.json) {
      printJson(out, { ...backend, grace: plan.grace, removed: totals, queues: results });
      return;
    }
    for (const [name, entry] of Object.entries(results))
      if ('completed' in entry && entry.completed + entry.failed > 0)
        out(`${name}: removed ${entry.completed} completed and ${entry.failed} failed jobs`);
    out(`removed ${totals.completed} completed and ${totals.failed} failed jobs finished more than ${plan.grace} ago`);
  } finally {
    await Promise.all(queues.map(([, queue]) => queue.close()));
  }
}

async function countJobs(queue: AppQueue<unknown>): Promise<Record<(typeof STATES)[number], number>> {
  const counts = await queue.getJobCounts(...STATES);
  return Object.fromEntries(STATES.map((state) => [state, counts[state] ?? 0])) as Record<
    (typeof STATES)[number],
    number
  >;
}
