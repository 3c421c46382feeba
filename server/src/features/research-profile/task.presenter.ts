import type { AsyncTaskRow } from '@radar/db';
import type { ResearchProfileResult, TaskStatusResponse } from '@radar/shared';

/** A research-direction task as GET /api/auth/tasks/:id/status/ returns it. */
export function presentTask(task: AsyncTaskRow): TaskStatusResponse {
  return {
    task_id: task.id,
    status: task.status,
    progress: task.progress,
    error_message: task.errorMessage,
    result_data: (task.resultData as ResearchProfileResult | null) ?? null,
    created_at: task.createdAt.toISOString(),
    finished_at: task.finishedAt?.toISOString() ?? null,
  };
}
