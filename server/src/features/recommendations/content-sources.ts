import type { RecommendationDiagnosticsRepository } from '@radar/db';
import { type IngestSettings, loadSources, type SourceConfig, SourcesConfigError } from '@radar/ingest';

/**
 * What stands between an installation and its first papers or news items: no source of that content
 * configured, a sources file that cannot be read, scheduled runs switched off, runs not finished yet,
 * or runs that failed. An empty list with nothing stored names the one that applies and who can fix it.
 */
export type SourceSetup =
  | { state: 'unreadable' }
  | {
      state: 'read';
      /** Enabled sources of this content in the sources file. */
      configured: number;
      /** Scheduled runs on; off, sources run only when an operator starts them. */
      scheduled: boolean;
      /** Of those, sources that finished a run, and sources whose last run failed. */
      finished: number;
      failing: number;
    };

/** Every kind but news feeds brings papers. */
const contentOf = (source: SourceConfig): 'papers' | 'news' => (source.kind === 'news-rss' ? 'news' : 'papers');

export class ContentSources {
  constructor(
    private readonly deps: {
      settings: Pick<IngestSettings, 'enabled' | 'sourcesFile' | 'sourcesJson' | 'disabledSources'>;
      diagnostics: RecommendationDiagnosticsRepository;
    },
  ) {}

  /** Read when a list is empty and nothing is stored: the sources file as it is now, and the run records. */
  async setupOf(kind: 'papers' | 'news'): Promise<SourceSetup> {
    let sources: SourceConfig[];
    try {
      ({ sources } = await loadSources(this.deps.settings));
    } catch (error) {
      if (error instanceof SourcesConfigError) return { state: 'unreadable' };
      throw error;
    }
    const names = sources.filter((source) => source.enabled && contentOf(source) === kind).map((source) => source.name);
    const runs = await this.deps.diagnostics.sourceRuns(names);
    return { state: 'read', configured: names.length, scheduled: this.deps.settings.enabled, ...runs };
  }
}
