import { RESEARCH_TASK_KIND } from '@radar/ai';
import type { AsyncTaskRepository, AuthRecordRepository, SessionRepository, UserRepository } from '@radar/db';
import { LIMITS, type MaintenanceJob } from '@radar/shared';
import type { Logger } from 'pino';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** What a failed research task says in the dialog when nothing is left to finish it. */
const INTERRUPTED_TASK_MESSAGE = '研究方向处理中断，请重试';

const INTERRUPTED_TASK_RULES = {
  /**
   * A task without a queue job is a synchronous `process/` request (or an async one whose job was lost).
   * That request gives up after LLM_TIMEOUT_MS, at most 10 minutes, in whichever process runs it; past
   * that plus a margin it can no longer finish. The margin also covers the moment between creating an
   * async task and queueing its job.
   */
  withoutJobAfterMs: 15 * MINUTE,
  /**
   * Any task this old is failed even with a job still queued: 3 attempts of at most 10 minutes plus
   * backoff fit well inside, and the dialog stopped polling after a minute long before.
   */
  maxAgeMs: 2 * HOUR,
  /** Tasks looked at per run; the next run takes the rest. */
  batch: 500,
} as const;

/** Job states in which nothing will run the task any more. */
const DEAD_JOB_STATES = new Set(['unknown', 'completed', 'failed']);

export interface ResearchJobStates {
  getJobState(jobId: string): Promise<string>;
}

/**
 * Fails research-direction tasks left 'pending' or 'processing' by a process that died (a killed
 * server's synchronous request, a job lost with its queue), so the dialog shows a message instead of
 * waiting forever. Several processes may share the table, so only tasks that cannot still finish are
 * touched; see INTERRUPTED_TASK_RULES. Idempotent: a task another process finished meanwhile is left
 * alone (AsyncTaskRepository.fail is conditional). Returns how many it failed.
 */
export async function failInterruptedResearchTasks(deps: {
  tasks: AsyncTaskRepository;
  /** The research-profile queue: the job id of an async task is the task id. */
  jobs: ResearchJobStates;
  /** 0 at the start of a process that alone uses its database (embedded mode). */
  withoutJobAfterMs?: number;
  now?: Date;
}): Promise<number> {
  const now = deps.now ?? new Date();
  const withoutJobAfterMs = deps.withoutJobAfterMs ?? INTERRUPTED_TASK_RULES.withoutJobAfterMs;
  const candidates = await deps.tasks.listUnfinished(
    RESEARCH_TASK_KIND,
    new Date(now.getTime() - withoutJobAfterMs),
    INTERRUPTED_TASK_RULES.batch,
  );
  let failed = 0;
  for (const task of candidates) {
    const tooOld = now.getTime() - task.createdAt.getTime() > INTERRUPTED_TASK_RULES.maxAgeMs;
    if (!tooOld && !DEAD_JOB_STATES.has(await deps.jobs.getJobState(task.id))) continue;
    if (await deps.tasks.fail(task.id, INTERRUPTED_TASK_MESSAGE)) failed++;
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
    researchJobs: ResearchJobStates;
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
        const failed = await failInterruptedResearchTasks({ tasks, jobs: deps.researchJobs });
        if (failed) deps.logger?.warn({ failed }, 'interrupted research tasks marked failed');
        return { outcome: 'success', failed };
      }
      case 'sync-sources':
        return { outcome: 'success', ...(await deps.syncSources()) };
    }
  };
}
