import type { DatabaseHandle } from '@radar/db';
import { QUEUE_NAMES, type QueueName } from '@radar/shared';
import type { Logger } from 'pino';
import { createMaintenanceProcessor } from './jobs/maintenance.job';
import { type AppQueue, type AppWorker, createQueue, createWorker, type QueueConnection } from './queue-connection';

export interface WorkerAppOptions {
  connection: QueueConnection;
  database: DatabaseHandle;
  concurrency: number;
  logger: Logger;
}

export interface WorkerApp {
  workers: AppWorker<unknown>[];
  /** Finishes in-flight jobs (or hands them back to the queue) and closes connections. */
  close(): Promise<void>;
}

type ProcessorFactory = (options: WorkerAppOptions) => (job: { data: unknown }) => Promise<unknown>;

/** One processor per queue; start-up refuses a queue without one. */
const PROCESSORS: Record<QueueName, ProcessorFactory> = {
  [QUEUE_NAMES.maintenance]: ({ database }) => createMaintenanceProcessor(database),
};

/** Recurring jobs, registered idempotently with BullMQ job schedulers (on either backend). */
const SCHEDULES = [
  {
    queue: QUEUE_NAMES.maintenance,
    id: 'purge-expired-auth-records',
    pattern: '17 3 * * *', // daily at 03:17
    data: { task: 'purge-expired-auth-records' },
  },
] as const;

export async function startWorkerApp(options: WorkerAppOptions): Promise<WorkerApp> {
  const { connection, logger } = options;
  const queueNames = Object.values(QUEUE_NAMES);
  const missing = queueNames.filter((name) => !PROCESSORS[name]);
  if (missing.length) throw new Error(`no processor for queue(s): ${missing.join(', ')}`);

  const workers = queueNames.map((name) => {
    const worker = createWorker<unknown>(connection, name, PROCESSORS[name](options), {
      concurrency: options.concurrency,
    });
    worker.on('failed', (job, error) =>
      logger.warn({ queue: name, jobId: job?.id, attempt: job?.attemptsMade, err: error.message }, 'job failed'),
    );
    worker.on('error', (error) => logger.error({ queue: name, err: error.message }, 'worker error'));
    return worker;
  });

  const schedulerQueues = new Map<string, AppQueue<unknown>>();
  for (const schedule of SCHEDULES) {
    const queue = schedulerQueues.get(schedule.queue) ?? createQueue<unknown>(connection, schedule.queue);
    schedulerQueues.set(schedule.queue, queue);
    await queue.upsertJobScheduler(
      schedule.id,
      { pattern: schedule.pattern },
      { name: schedule.id, data: schedule.data },
    );
  }

  logger.info({ backend: connection.backend, queues: queueNames, concurrency: options.concurrency }, 'worker started');
  return {
    workers,
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all([...schedulerQueues.values()].map((queue) => queue.close()));
    },
  };
}
