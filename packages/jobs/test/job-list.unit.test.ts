import { QUEUE_NAMES } from '@radar/shared';
import { describe, expect, it } from 'vitest';
import { JOBS } from '../src/job-list';

describe('JOBS', () => {
  it('has one job per queue, in the order of QUEUE_NAMES', () => {
    expect(JOBS.map((job) => job.queue)).toEqual(Object.values(QUEUE_NAMES));
  });

  // Scheduler ids are how BullMQ upserts them: a renamed id would leave the old scheduler running beside the new.
  it('keeps the recurring jobs under their ids, patterns and payloads', () => {
    const schedules = JOBS.flatMap((job) =>
      (job.schedules ?? []).map((schedule) => ({ queue: job.queue, ...schedule })),
    );
    expect(schedules).toEqual([
      {
        queue: 'maintenance',
        id: 'purge-expired-auth-records',
        pattern: '17 3 * * *',
        data: { task: 'purge-expired-auth-records' },
      },
      {
        queue: 'maintenance',
        id: 'purge-stale-unverified-accounts',
        pattern: '47 * * * *',
        data: { task: 'purge-stale-unverified-accounts' },
      },
      {
        queue: 'maintenance',
        id: 'fail-interrupted-tasks',
        pattern: '*/5 * * * *',
        data: { task: 'fail-interrupted-tasks' },
      },
      { queue: 'maintenance', id: 'sync-sources', pattern: '*/10 * * * *', data: { task: 'sync-sources' } },
      { queue: 'embeddings', id: 'maintain-embeddings', pattern: '41 * * * *', data: { task: 'maintain' } },
      { queue: 'paper-summary', id: 'summarize-recent-papers', pattern: '23 * * * *', data: {} },
      { queue: 'keyword-alerts', id: 'send-keyword-alerts', pattern: '7 * * * *', data: {} },
      { queue: 'reader-queries', id: 'query-openalex-for-readers', pattern: '13 * * * *', data: {} },
      { queue: 'delivery', id: 'deliver-digests', pattern: '3 * * * *', data: {} },
    ]);
  });

  it('runs one job at a time where runs must not overlap in a process', () => {
    const single = JOBS.filter((job) => job.concurrency === 1).map((job) => job.queue);
    expect(single).toEqual(['embeddings', 'ingest', 'keyword-alerts', 'journal-tiers', 'reader-queries', 'delivery']);
  });
});
