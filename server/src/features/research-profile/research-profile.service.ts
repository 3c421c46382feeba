import {
  type AiServices,
  isAiProviderError,
  RESEARCH_TASK_KIND,
  ResearchTaskFailedError,
  replaceAtForms,
  runResearchTask,
} from '@radar/ai';
import type { AsyncTaskRepository, AsyncTaskRow, UserRepository, UserRow } from '@radar/db';
import type { JobQueue } from '@radar/jobs';
import {
  EMAIL_PATTERN,
  mapResearchFields,
  type ResearchConfirmRequest,
  type ResearchConfirmResponse,
  type ResearchProcessResponse,
  type TaskStatusResponse,
  type TaskSubmittedResponse,
} from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';
import { presentUser } from '../../presenters/user.presenter';
import type { SourceActivationRequests } from '../../services/source-activation';
import type { ProfileEmbeddingService } from './profile-embedding.service';
import { presentTask } from './task.presenter';

const RESEARCH_MESSAGES = {
  queueUnavailable: '研究方向处理服务暂时不可用，请稍后重试',
  timedOut: '研究方向处理超时，请重试',
  failed: '研究方向处理失败，请重试',
  confirmed: '研究方向已保存',
  invalidEmail: '邮箱格式不正确',
} as const;

/** BullMQ's largest priority (2^21 - 1). */
const MAX_JOB_PRIORITY = 2_097_151;

/**
 * A job's priority in the shared research queue: the user's count of unfinished analyses, this one
 * included (BullMQ runs lower numbers first, equal ones in order of arrival). A user's first analysis
 * thus outranks anyone's second, and one account's 20 queued analyses delay another user's first by at
 * most the jobs already running: the queue takes the users' jobs in turns.
 */
const fairJobPriority = (unfinishedOfUser: number) => Math.min(Math.max(1, unfinishedOfUser), MAX_JOB_PRIORITY);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Research-direction analysis as a task the owner polls, its synchronous variant,
 * and confirming the result into the profile, which recomputes the profile vector.
 */
export class ResearchProfileService {
  constructor(
    private readonly deps: {
      tasks: AsyncTaskRepository;
      users: UserRepository;
      ai: AiServices;
      researchQueue: JobQueue<'research-profile'>;
      profileEmbedding: ProfileEmbeddingService;
      /** Asked after a save that names research fields, so the fields' content sources start now. */
      sources?: SourceActivationRequests;
      /** Deadline of the synchronous variant. */
      syncTimeoutMs: number;
      logger: Logger;
    },
  ) {}

  private async createTask(user: UserRow, description: string): Promise<AsyncTaskRow> {
    // The pasted text is also the profile's research_description; both are written
    // together or not at all.
    return this.deps.tasks.createWithResearchDescription({
      userId: user.id,
      kind: RESEARCH_TASK_KIND,
      researchDescription: description,
    });
  }

  async submit(user: UserRow, description: string): Promise<TaskSubmittedResponse> {
    const task = await this.createTask(user, description);
    try {
      const priority = fairJobPriority(await this.deps.tasks.countUnfinishedOf(user.id, RESEARCH_TASK_KIND));
      // The task id is the job id: adding the same task twice cannot queue it twice.
      await this.deps.researchQueue.add('analyse', { taskId: task.id }, { jobId: task.id, priority });
    } catch (error) {
      this.deps.logger.error({ taskId: task.id, err: (error as Error).message }, 'could not queue research task');
      await this.deps.tasks.fail(task.id, RESEARCH_MESSAGES.queueUnavailable);
      throw errors.unavailable(RESEARCH_MESSAGES.queueUnavailable);
    }
    return { task_id: task.id, status: 'pending' };
  }

  /** Only the owner sees a task; anyone else gets the same 404 as for a task that does not exist. */
  async status(user: UserRow, taskId: string): Promise<TaskStatusResponse> {
    const task = UUID.test(taskId) ? await this.deps.tasks.findOwned(taskId, user.id) : undefined;
    if (!task) throw errors.notFound('任务不存在');
    return presentTask(task);
  }

  /** The same pipeline, run in this request with a deadline; the task row records it like any other. */
  async processNow(user: UserRow, description: string): Promise<ResearchProcessResponse> {
    const task = await this.createTask(user, description);
    const signal = AbortSignal.timeout(this.deps.syncTimeoutMs);
    try {
      const outcome = await runResearchTask(
        { tasks: this.deps.tasks, extractor: this.deps.ai.researchExtractor, logger: this.deps.logger },
        task.id,
        { isFinalAttempt: true, signal, abortMessage: RESEARCH_MESSAGES.timedOut },
      );
      if (outcome.outcome !== 'completed') throw errors.conflict(RESEARCH_MESSAGES.failed);
      return { task_id: task.id, status: 'completed', result_data: outcome.result };
    } catch (error) {
      const timedOut =
        signal.aborted ||
        (error instanceof ResearchTaskFailedError && isAiProviderError(error.cause) && error.cause.kind === 'timeout');
      if (timedOut) throw errors.upstreamTimedOut(RESEARCH_MESSAGES.timedOut);
      if (error instanceof ResearchTaskFailedError) throw errors.upstreamFailed(error.message);
      await this.deps.tasks.fail(task.id, RESEARCH_MESSAGES.failed);
      throw error;
    }
  }

  async confirm(user: UserRow, body: ResearchConfirmRequest): Promise<ResearchConfirmResponse> {
    const changes: Parameters<UserRepository['update']>[1] = {};
    if (body.research_name !== undefined) changes.researchName = body.research_name;
    if (body.research_institution !== undefined) changes.researchInstitution = body.research_institution;
    if (body.research_position !== undefined) changes.researchPosition = body.research_position;
    if (body.research_summary_en !== undefined) changes.researchSummaryEn = body.research_summary_en;
    if (body.research_email !== undefined) {
      const email = replaceAtForms(body.research_email).trim();
      if (email && !EMAIL_PATTERN.test(email)) {
        throw errors.validation(RESEARCH_MESSAGES.invalidEmail, { research_email: [RESEARCH_MESSAGES.invalidEmail] });
      }
      changes.researchEmail = email;
    }
    if (body.research_fields !== undefined) {
      const { ids, unmapped } = mapResearchFields(body.research_fields);
      if (unmapped.length) {
        this.deps.logger.warn({ userId: user.id, unmapped }, 'unknown research fields kept as given');
      }
      changes.researchFields = ids;
      changes.researchFieldsUnmapped = unmapped;
    }
    const updated = Object.keys(changes).length ? await this.deps.users.update(user.id, changes) : user;
    if (!updated) throw errors.notFound();
    if (changes.researchFields) await this.deps.sources?.afterProfileSaved(changes.researchFields);
    const hasVector = await this.deps.profileEmbedding.refreshAfterSave(updated);
    const current = (await this.deps.users.findById(user.id)) ?? updated;
    return {
      success: true,
      message: RESEARCH_MESSAGES.confirmed,
      user: presentUser(current),
      unmapped_research_fields: current.researchFieldsUnmapped,
      has_vector: hasVector,
    };
  }
}
