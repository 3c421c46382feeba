import { API_PATHS, apiPath, type TaskStatusResponse } from '@radar/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/auth/tasks/{id}/status/. */
function getTaskStatus(taskId: string, options: { signal?: AbortSignal } = {}): Promise<TaskStatusResponse> {
  return api.get<TaskStatusResponse>(apiPath(API_PATHS.taskStatus, { id: taskId }), options);
}

/** One cache entry per task; a task's status is always read fresh (it is polled). */
export const taskStatusQueryOptions = (taskId: string) =>
  queryOptions({
    queryKey: ['research-tasks', taskId, 'status'],
    queryFn: ({ signal }) => getTaskStatus(taskId, { signal }),
    staleTime: 0,
    gcTime: 0,
    // Every answer is a new object, even when unchanged: the dialog counts answers to stop after 30.
    structuralSharing: false,
  });
