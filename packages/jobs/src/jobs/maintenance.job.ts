import { RESEARCH_TASK_KIND } from '@radar/ai';
import type { AsyncTaskRepository, AuthRecordRepository, SessionRepository, UserRepository } from '@radar/db';
import { OWN_WORKS_TASK_KIND } from '@radar/ingest';
import { LIMITS, type MaintenanceJob } from '@radar/shared';
import type { Logger } from 'pino';
import { defineJob } from '../job-definition';
import { logSourcesSync, syncActiveSources } from '../source-schedules';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const INTERRUPTED_TASK_RULES = {
  /**
   * Any task this old is failed even with a job still queued: 3 attempts of at most 10 minutes plus
   * backoff fit well inside, and the dialog stopped polling long before.
   */
  maxAgeMs: 2 * HOUR,
  /** Tasks looked at per run and kind; the next run takes the rest. */
  batch: 500,
} as const;

/**
 * The kinds of polled task a dead process can leave unfinished: what the dialog then says (what happened
 * and what to do next), and how long a task may go without a queue job before it cannot finish.
 */
const INTERRUPTIBLE_TASKS = {
  research: {
    kind: RESEARCH_TASK_KIND,
    message: '研究方向处理中断，请重试',
    /**
     * A research task without a queue job is a synchronous `process/` request (or an async one whose job
     * was lost). That request gives up after LLM_TIMEOUT_MS, at most 10 minutes, in whichever process
     * runs it; past that plus a margin it can no longer finish. The margin also covers the moment between
     * creating an async task and queueing its job.
     */
    withoutJobAfterMs: 15 * MINUTE,
  },
  ownWorks: {
    kind: OWN_WORKS_TASK_KIND,
    message: '导入作品中断，请重新提交 ORCID iD、OpenAlex 作者编号或文献库文件',
    /**
     * Own-works tasks are always queued (a failed queueing fails the task in the request), so a minute
     * only covers the moment between creating the task and adding its job; the dialog polls for 4.
     */
    withoutJobAfterMs: MINUTE,
  },
} as const;

export type InterruptibleTask = keyof typeof INTERRUPTIBLE_TASKS;

/** Job states in which nothing will run the task any more. */
const DEAD_JOB_STATES = new Set(['unknown', 'completed', 'failed']);

/** A queue as the sweep sees it: the job id of a queued task is the task id. */
export interface TaskJobStates {
  getJobState(jobId: string): Promise<string>;
}

/**
 * Fails polled tasks (research-direction analyses, own-works seedings) left 'pending' or 'processing' by
 * a process that died (a killed server's synchronous request, a job the stalled-job check gave up on, a
 * job lost with its queue), so the dialog shows a message instead of waiting forever. Several processes
 * may share the table, so only tasks that cannot still finish are touched: past their kind's margin,
 * with a job in a dead state or none, or older than INTERRUPTED_TASK_RULES.maxAgeMs. Idempotent: a task
 * another process finished meanwhile is left alone (AsyncTaskRepository.fail is conditional). Returns
 * how many it failed.
 */
export async function failInterruptedTasks(deps: {
  tasks: AsyncTaskRepository;
  /** The queue of each kind swept (research-profile, own-works). */
  jobs: Record<InterruptibleTask, TaskJobStates>;
  /** 0 at the start of a process that alone uses its database (embedded mode). */
  withoutJobAfterMs?: number;
  now?: Date;
}): Promise<number> {
  const now = deps.now ?? new Date();
  let failed = 0;
  for (const name of Object.keys(INTERRUPTIBLE_TASKS) as InterruptibleTask[]) {
    const rules = INTERRUPTIBLE_TASKS[name];
    const withoutJobAfterMs = deps.withoutJobAfterMs ?? rules.withoutJobAfterMs;
    const candidates = await deps.tasks.listUnfinished(
      rules.kind,
      new Date(now.getTime() - withoutJobAfterMs),
      INTERRUPTED_TASK_RULES.batch,
    );
    for (const task of candidates) {
      const tooOld = now.getTime() - task.createdAt.getTime() > INTERRUPTED_TASK_RULES.maxAgeMs;
      if (!tooOld && !DEAD_JOB_STATES.has(await deps.jobs[name].getJobState(task.id))) continue;
      if (await deps.tasks.fail(task.id, rules.message)) failed++;
    }
  }
  return failed;
}

/** Housekeeping that keeps tables small and tasks finite. Idempotent: running it twice changes nothing more. */
export function createMaintenanceProcessor(
  repositories: {
    authRecords: AuthRecordRepository;
    users: UserRepository;
    tasks: AsyncTaskRepository;
    sessions: SessionRepository;
  },
  deps: {
    /** The queues of the polled tasks the sweep fails when nothing can finish them. */
    taskJobs: Record<InterruptibleTask, TaskJobStates>;
    /** Makes the content sources' schedules follow activation (syncActiveSources); returns what it did. */
    syncSources: () => Promise<object>;
    logger?: Logger;
  },
) {
  const { authRecords, users, tasks, sessions } = repositories;
  return async (job: { data: MaintenanceJob }) => {
    const payload = job.data;
    switch (payload.task) {
      case 'purge-expired-auth-records':
        return {
          outcome: 'success',
          purged: { ...(await authRecords.purgeExpired()), sessions: await sessions.purgeExpired(new Date()) },
        };
      case 'purge-stale-unverified-accounts': {
        const now = new Date();
        const createdBefore = new Date(now.getTime() - LIMITS.pendingRegistrationSeconds * 1000);
        return { outcome: 'success', purged: { accounts: await users.purgeStaleUnverified(createdBefore, now) } };
      }
      case 'fail-interrupted-tasks': {
        const failed = await failInterruptedTasks({ tasks, jobs: deps.taskJobs });
        if (failed) deps.logger?.warn({ failed }, 'interrupted tasks marked failed');
        return { outcome: 'success', failed };
      }
      case 'sync-sources':
        return { outcome: 'success', ...(await deps.syncSources()) };
    }
  };
}

/** Housekeeping, on four schedules; saving a profile also asks it for the sources sync at once. */
export const maintenanceJob = defineJob({
  queue: 'maintenance',
  processor: ({ repositories, queue, ingest, logger }) =>
    createMaintenanceProcessor(repositories, {
      taskJobs: { research: queue('research-profile'), ownWorks: queue('own-works') },
      syncSources: async () => {
        const sync = await syncActiveSources({
          repositories: repositories.ingest,
          states: repositories.sourceStates,
          settings: ingest,
          queue: queue('ingest'),
          logger,
        });
        logSourcesSync(logger, sync);
        return sync;
      },
      logger,
    }),
  schedules: [
    { id: 'purge-expired-auth-records', pattern: '17 3 * * *', data: { task: 'purge-expired-auth-records' } }, // daily at 03:17
    // Hourly: registrations nobody verified within the pending window, placeholders.
    { id: 'purge-stale-unverified-accounts', pattern: '47 * * * *', data: { task: 'purge-stale-unverified-accounts' } },
    // Research and own-works tasks a dead process left unfinished.
    { id: 'fail-interrupted-tasks', pattern: '*/5 * * * *', data: { task: 'fail-interrupted-tasks' } },
    // Content sources follow their readers: a field a profile no longer names (an account disabled or
    // deleted) switches its catalogue sources off here; saving a profile asks for this sync at once.
    { id: 'sync-sources', pattern: '*/10 * * * *', data: { task: 'sync-sources' } },
  ],
});
