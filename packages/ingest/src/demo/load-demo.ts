import type { IngestRepositories } from '@radar/db';
import {
  type ConsumeRepositories,
  consumeEntries,
  type IngestProgress,
  type IngestSummary,
} from '../pipeline/pipeline';
import { importTierTable, type TierImportRepositories, type TierImportSummary } from '../tiers/tier-import';
import type { IngestEntry } from '../types';
import { DEMO_SOURCE, DEMO_TIER_LABEL, type DemoCorpus, generateDemoCorpus } from './demo-corpus';

export interface DemoLoadSummary {
  removedPapers: number;
  removedNews: number;
  journals: TierImportSummary;
  content: IngestSummary;
}

/**
 * Replaces the demo content with a freshly dated corpus (`pnpm radar demo`): demo papers and news are
 * removed, demo journals (tier source "demo") upserted with their tiers, the corpus stored through the
 * ingestion pipeline with is_demo set. Real content is never touched. Vectors and summaries come from
 * the content jobs the caller enqueues with the returned ids.
 */
export async function loadDemoCorpus(
  repositories: ConsumeRepositories & TierImportRepositories,
  options: { today?: Date; onProgress?: (progress: IngestProgress) => void } = {},
): Promise<DemoLoadSummary> {
  const corpus: DemoCorpus = generateDemoCorpus(options.today);
  const removed = await removeDemoContent(repositories);
  const journals = await importTierTable(repositories, {
    format: 'plain',
    label: DEMO_TIER_LABEL,
    rows: corpus.journals.map((journal, index) => ({
      line: index + 2,
      title: journal.title,
      issns: [],
      tier: journal.tier,
      publisher: 'Research Radar demo',
      fields: [journal.field],
    })),
    rejects: [],
  });
  async function* entries(): AsyncGenerator<IngestEntry, undefined> {
    for (const draft of corpus.papers) yield { type: 'paper', draft };
    for (const draft of corpus.news) yield { type: 'news', draft };
    return undefined;
  }
  const total = { value: corpus.papers.length + corpus.news.length };
  const { summary, failure } = await consumeEntries(repositories, entries(), {
    source: DEMO_SOURCE,
    isDemo: true,
    onProgress: options.onProgress,
    total,
  });
  if (failure) throw failure;
  return { removedPapers: removed.papers, removedNews: removed.news, journals, content: summary };
}

export async function removeDemoContent(
  repositories: Pick<IngestRepositories, 'ingestPapers' | 'news'>,
): Promise<{ papers: number; news: number }> {
  const papers = await repositories.ingestPapers.deleteDemo();
  const news = await repositories.news.deleteDemo();
  return { papers, news };
}
