import type { AsyncTaskRepository, UserRow } from '@radar/db';
import {
  LibraryFileError,
  OWN_WORKS_TASK_KIND,
  type OwnWorksTaskInput,
  parseAuthorId,
  parseLibraryFileOffThread,
} from '@radar/ingest';
import type { JobQueue } from '@radar/jobs';
import { OWN_WORKS_LIMITS, type TaskSubmittedResponse } from '@radar/shared';
import type { Logger } from 'pino';
import { errors } from '../../errors';

const MESSAGES = {
  invalidAuthorId: 'ORCID iD 无效：请检查格式（如 0000-0002-1825-0097）和最后一位校验位',
  openAlexUnavailable: '本站未配置 OpenAlex，请改用 ORCID iD 或上传文献库文件',
  queueUnavailable: '作品导入服务暂时不可用，请稍后重试',
} as const;

/**
 * Seeding the research profile from the reader's own works, as a task polled like a homepage analysis
 * (GET /api/auth/tasks/{id}/status/): an ORCID iD or OpenAlex author id (fetched by the worker), or a
 * library file (parsed here, in a worker thread, so a malformed or oversized file is refused at once and
 * nothing is stored).
 */
export class OwnWorksService {
  constructor(
    private readonly deps: {
      tasks: AsyncTaskRepository;
      queue: JobQueue<'own-works'>;
      /** OPENALEX_API_KEY is set: OpenAlex author ids are accepted. */
      hasOpenAlexKey: boolean;
      logger: Logger;
    },
  ) {}

  async submitAuthorId(user: UserRow, authorId: string): Promise<TaskSubmittedResponse> {
    const parsed = parseAuthorId(authorId);
    if (!parsed) throw errors.validation(MESSAGES.invalidAuthorId, { author_id: [MESSAGES.invalidAuthorId] });
    if (parsed.kind === 'openalex' && !this.deps.hasOpenAlexKey) {
      throw errors.validation(MESSAGES.openAlexUnavailable, { author_id: [MESSAGES.openAlexUnavailable] });
    }
    return this.queue(user, { source: parsed.kind, author_id: parsed.id, limit: OWN_WORKS_LIMITS.maxWorks });
  }

  async submitLibraryFile(user: UserRow, fileName: string, content: string): Promise<TaskSubmittedResponse> {
    let parsed: Awaited<ReturnType<typeof parseLibraryFileOffThread>>;
    try {
      // In a worker thread with a deadline: a large file must not hold the other requests.
      parsed = await parseLibraryFileOffThread(content);
    } catch (error) {
      if (!(error instanceof LibraryFileError)) throw error;
      if (error.cause) this.deps.logger.warn({ err: String(error.cause) }, 'library file parser failed');
      throw errors.validation(error.message, { content: [error.message] });
    }
    return this.queue(user, {
      source: 'library',
      file_name: fileName,
      format: parsed.format,
      works: parsed.works,
      total: parsed.total,
    });
  }

  private async queue(user: UserRow, input: OwnWorksTaskInput): Promise<TaskSubmittedResponse> {
    const task = await this.deps.tasks.create({ userId: user.id, kind: OWN_WORKS_TASK_KIND, input });
    try {
      // The task id is the job id: adding the same task twice cannot queue it twice.
      await this.deps.queue.add('seed', { taskId: task.id }, { jobId: task.id });
    } catch (error) {
      this.deps.logger.error({ taskId: task.id, err: (error as Error).message }, 'could not queue own-works task');
      await this.deps.tasks.fail(task.id, MESSAGES.queueUnavailable);
      throw errors.unavailable(MESSAGES.queueUnavailable);
    }
    return { task_id: task.id, status: 'pending' };
  }
}
