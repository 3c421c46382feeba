import type { JobQueue } from '@radar/jobs';
import type { Logger } from 'pino';

/**
 * Content sources follow their readers' fields (the built-in catalogue switches a field's sources on
 * while a profile names it). A saved profile that names a field asks the worker for the sources sync
 * (maintenance task `sync-sources`) at once, so a newly needed source's first fetch starts within
 * seconds instead of at the next periodic sync.
 */
export class SourceActivationRequests {
  constructor(private readonly deps: { queue: JobQueue<'maintenance'>; logger: Logger }) {}

  /**
   * Queues the sync when `fields` (the saved profile's field ids) names any. Never fails the save:
   * a queue that cannot be reached is logged, and the periodic sync catches up.
   */
  async afterProfileSaved(fields: readonly string[]): Promise<void> {
    if (fields.length === 0) return;
    try {
      await this.deps.queue.add('sync-sources', { task: 'sync-sources' });
    } catch (error) {
      this.deps.logger.warn({ err: (error as Error).message }, 'sources sync not requested');
    }
  }
}
