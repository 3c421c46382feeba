import type { AsyncTaskRepository } from '@radar/db';
import type { ResearchProfileResult } from '@radar/shared';
import type { Logger } from 'pino';
import { isAiProviderError } from './ai-errors';
import type { ResearchProfileExtractor } from './research-profile';

export const RESEARCH_TASK_KIND = 'research-direction';
const RESEARCH_FAILED_MESSAGE = '研究方向处理失败，请重试';

export type ResearchTaskOutcome =
  | { outcome: 'completed'; result: ResearchProfileResult }
  | { outcome: 'skipped'; reason: string };

/** The task failed for good; the task row already says so, with `message` for the user. */
export class ResearchTaskFailedError extends Error {
  override name = 'ResearchTaskFailedError';
}

/**
 * One attempt at a research-direction task: the worker's job and the synchronous endpoint both run
 * this. Idempotent: a task that is already completed or failed is left alone, and a task is
 * completed at most once (conditional updates in AsyncTaskRepository).
 *
 * Failures: answers a retry cannot fix (the provider refused the request, or gave malformed output
 * twice) and failures on the last attempt mark the task failed with a readable message; other
 * failures are rethrown for the queue to retry with backoff, leaving the task `processing`.
 */
export async function runResearchTask(
  deps: { tasks: AsyncTaskRepository; extractor: ResearchProfileExtractor; logger?: Logger | undefined },
  taskId: string,
  options: {
    isFinalAttempt: boolean;
    signal?: AbortSignal;
    /** The task's message when `signal` aborts it (e.g. the synchronous endpoint's deadline). */
    abortMessage?: string;
    onProgress?: (progress: number) => Promise<void>;
  },
): Promise<ResearchTaskOutcome> {
  const task = await deps.tasks.startAttempt(taskId);
  if (!task) return { outcome: 'skipped', reason: 'task is missing or already finished' };
  const text = (task.input as { research_description?: unknown }).research_description;
  if (typeof text !== 'string' || text.trim() === '') {
    await deps.tasks.fail(taskId, RESEARCH_FAILED_MESSAGE);
    throw new ResearchTaskFailedError('task has no research description');
  }
  try {
    const result = await deps.extractor.extract(text.trim(), {
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: async (progress) => {
        await deps.tasks.reportProgress(taskId, progress);
        await options.onProgress?.(progress);
      },
    });
    const completed = await deps.tasks.complete(taskId, result);
    return completed ? { outcome: 'completed', result } : { outcome: 'skipped', reason: 'task finished meanwhile' };
  } catch (error) {
    const permanent = isAiProviderError(error) && !error.isTransient;
    deps.logger?.warn(
      { taskId, attempt: task.attempts, permanent, err: (error as Error).message },
      'research-direction analysis failed',
    );
    if (permanent || options.isFinalAttempt) {
      const message =
        options.signal?.aborted && options.abortMessage
          ? options.abortMessage
          : isAiProviderError(error)
            ? error.userMessage
            : RESEARCH_FAILED_MESSAGE;
      await deps.tasks.fail(taskId, message);
      throw new ResearchTaskFailedError(message, { cause: error });
    }
    throw error;
  }
}
