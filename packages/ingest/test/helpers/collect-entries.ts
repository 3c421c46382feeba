import type { IngestEntry, NewsDraft, PaperDraft } from '../../src/types';

/** Everything a reader yields, split into paper drafts, news drafts and the other entries (rejects, notes). */
export async function collect(entries: AsyncGenerator<IngestEntry, unknown>) {
  const all: IngestEntry[] = [];
  for await (const entry of entries) all.push(entry);
  return {
    papers: all.flatMap((entry) => (entry.type === 'paper' ? [entry.draft] : [])) as PaperDraft[],
    news: all.flatMap((entry) => (entry.type === 'news' ? [entry.draft] : [])) as NewsDraft[],
    others: all.filter((entry) => entry.type !== 'paper' && entry.type !== 'news'),
  };
}
