import type { TaskStatusResponse } from '@radar/shared';
import { RESEARCH_STRINGS } from '../strings';
import { type AnalysisResult, readAnalysisResult } from './ai-profile';

/** The task's status is asked for up to 30 times, 2 s apart. */
export const TASK_POLLING = { maxPolls: 30, intervalMs: 2000 } as const;
/**
 * Polls of a seeding from one's own works (4 minutes): fetching up to 200 works and looking up missing
 * abstracts by DOI takes longer than one analysis.
 */
export const OWN_WORKS_MAX_POLLS = 120;

/** What a status answer of the research-direction task means for the dialog. */
export type TaskProgress =
  | { kind: 'waiting' }
  | { kind: 'completed'; result: AnalysisResult }
  | { kind: 'empty' }
  | { kind: 'failed'; message: string }
  | { kind: 'timed-out' };

type TaskStatusLike = Pick<TaskStatusResponse, 'status' | 'error_message'> & { result_data: unknown };

/**
 * Reads the latest status after `polls` answers: completed yields the result (or 'empty'), failed the
 * task's error message, anything else waits for the next poll until the polls run out.
 */
export function readTaskProgress(
  status: TaskStatusLike | undefined,
  polls: number,
  maxPolls: number = TASK_POLLING.maxPolls,
): TaskProgress {
  if (status?.status === 'completed') {
    const result = readAnalysisResult(status.result_data);
    return result ? { kind: 'completed', result } : { kind: 'empty' };
  }
  if (status?.status === 'failed') {
    return { kind: 'failed', message: status.error_message?.trim() || RESEARCH_STRINGS.errors.processingFailed };
  }
  return polls >= maxPolls ? { kind: 'timed-out' } : { kind: 'waiting' };
}

/** TanStack Query's refetchInterval: poll again in 2 s while the task runs and polls are left. */
export function nextPollDelay(
  status: TaskStatusLike | undefined,
  polls: number,
  maxPolls: number = TASK_POLLING.maxPolls,
): number | false {
  return readTaskProgress(status, polls, maxPolls).kind === 'waiting' ? TASK_POLLING.intervalMs : false;
}
