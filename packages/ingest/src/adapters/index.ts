import type { SourceConfig } from '../pipeline/sources-config';
import { declaredJournal } from '../pipeline/sources-config';
import type { IngestEntry, SourceKind } from '../types';
import { fetchArxiv, fetchArxivRss, readArxivApiFile, readArxivRssFile } from './arxiv';
import { fetchBiorxiv, readBiorxiv } from './biorxiv';
import type { FileReadOptions, SourceRun, SourceRunContext } from './context';
import { fetchCrossref, readCrossref } from './crossref';
import { fetchJournalFeed, fetchNewsFeed, readJournalFeedFile, readNewsFeedFile } from './feeds';
import { fetchOpenAlex, readOpenAlex } from './openalex';

/** One run of a configured source. */
export function fetchSource(source: SourceConfig, ctx: SourceRunContext): SourceRun {
  switch (source.kind) {
    case 'arxiv':
      return fetchArxiv(source, ctx);
    case 'arxiv-rss':
      return fetchArxivRss(source, ctx);
    case 'openalex':
      return fetchOpenAlex(source, ctx);
    case 'crossref':
      return fetchCrossref(source, ctx);
    case 'biorxiv':
      return fetchBiorxiv(source, ctx);
    case 'rss':
      return fetchJournalFeed(source, ctx);
    case 'news-rss':
      return fetchNewsFeed(source, ctx);
  }
}

export interface ReadFileOptions extends FileReadOptions {
  /** The configured source the file belongs to, for its journal or institute. */
  source?: SourceConfig | undefined;
  /** For news files without a configured source: the institute (else the feed's title). */
  institute?: string | undefined;
  /** For journal feed files without a configured source: the journal (else from the feed). */
  journal?: string | undefined;
}

/** A local file in a source kind's format (an API answer or feed saved elsewhere). */
export function readSourceFile(
  kind: SourceKind,
  bytes: AsyncIterable<Uint8Array>,
  options: ReadFileOptions,
): AsyncGenerator<IngestEntry, unknown> {
  const source = options.source;
  switch (kind) {
    case 'arxiv':
      return readArxivApiFile(bytes, options);
    case 'arxiv-rss':
      return readArxivRssFile(bytes, {
        ...options,
        includeReplacements: source?.kind === 'arxiv-rss' ? source.includeReplacements : false,
      });
    case 'openalex':
      return readOpenAlex(bytes, options);
    case 'crossref':
      return readCrossref(bytes, options);
    case 'biorxiv':
      return readBiorxiv(bytes, { ...options, server: source?.kind === 'biorxiv' ? source.server : undefined });
    case 'rss':
      return readJournalFeedFile(bytes, {
        ...options,
        journal:
          source?.kind === 'rss'
            ? declaredJournal(source)
            : options.journal
              ? { name: options.journal, issns: [] }
              : undefined,
        isPreprintServer: source?.kind === 'rss' ? source.isPreprintServer : false,
      });
    case 'news-rss':
      return readNewsFeedFile(bytes, {
        ...options,
        institute: source?.kind === 'news-rss' ? source.institute : options.institute,
        homepage: source?.kind === 'news-rss' ? source.homepage : undefined,
      });
  }
}
