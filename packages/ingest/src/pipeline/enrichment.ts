import { type JobPayload, QUEUE_NAMES } from '@radar/shared';
import type { IngestSummary } from './pipeline';

type EnrichmentQueue = typeof QUEUE_NAMES.contentEmbed | typeof QUEUE_NAMES.paperSummary;

/** Adds a job to one of the enrichment queues (a @radar/jobs queue's `add`, bound by the caller). */
export type EnqueueJob = <N extends EnrichmentQueue>(queue: N, name: string, data: JobPayload<N>) => Promise<unknown>;

const EMBED_CHUNK = 200;
const SUMMARY_CHUNK = 50;

function chunks(ids: number[], size: number): number[][] {
  const result: number[][] = [];
  for (let start = 0; start < ids.length; start += size) result.push(ids.slice(start, start + size));
  return result;
}

/**
 * After a run: vectors for new and changed items, summaries for new and changed papers when an LLM is
 * configured (`summaries`; without one the jobs would only be skipped, and the hourly sweep catches
 * up once one is set). Jobs carry ids only; the processors skip rows that are already done, so a
 * repeated enqueue is harmless. `embeddings: false` leaves out the vectors (the CLI computes them
 * itself when no worker runs).
 */
export async function enqueueEnrichment(
  enqueue: EnqueueJob,
  summary: Pick<IngestSummary, 'newPaperIds' | 'changedPaperIds' | 'newNewsIds' | 'changedNewsIds'>,
  options: { summaries: boolean; embeddings?: boolean },
): Promise<{ embedJobs: number; summaryJobs: number }> {
  const paperIds = [...new Set([...summary.newPaperIds, ...summary.changedPaperIds])];
  const newsIds = [...new Set([...summary.newNewsIds, ...summary.changedNewsIds])];
  let embedJobs = 0;
  let summaryJobs = 0;
  const withEmbeddings = options.embeddings ?? true;
  for (const ids of withEmbeddings ? chunks(paperIds, EMBED_CHUNK) : []) {
    await enqueue(QUEUE_NAMES.contentEmbed, 'embed-papers', { target: 'papers', ids });
    embedJobs++;
  }
  for (const ids of withEmbeddings ? chunks(newsIds, EMBED_CHUNK) : []) {
    await enqueue(QUEUE_NAMES.contentEmbed, 'embed-news', { target: 'news', ids });
    embedJobs++;
  }
  for (const ids of options.summaries ? chunks(paperIds, SUMMARY_CHUNK) : []) {
    await enqueue(QUEUE_NAMES.paperSummary, 'summarize-papers', { ids });
    summaryJobs++;
  }
  return { embedJobs, summaryJobs };
}
