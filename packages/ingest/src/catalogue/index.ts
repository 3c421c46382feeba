import type { IngestRepositories } from '@radar/db';
import type { ResearchFieldId } from '@radar/shared';
import type { IngestSettings } from '../pipeline/settings';
import {
  fieldsOf,
  loadSources,
  parseSourcesDocument,
  type SourceConfig,
  type SourceRequirement,
  SourcesConfigError,
} from '../pipeline/sources-config';
import { CATALOGUE_ENTRIES } from './entries';

/**
 * Which content sources run, and why. A sources file (or INGEST_SOURCES_JSON) lists them outright and
 * replaces the catalogue entirely; without one, the built-in catalogue (`entries.ts`) applies, and each
 * of its entries is active while at least one reader (verified, not disabled) names one of its fields.
 * `resolveSources()` is the one place that decides: the ingest job, the schedulers, the server's
 * empty-list explanation and `pnpm radar sources list` all read it.
 */

/** The origin of the catalogue in messages, where a sources file's path would be. */
export const CATALOGUE_ORIGIN = 'built-in catalogue';

export interface SourceList {
  sources: SourceConfig[];
  /** A path, 'INGEST_SOURCES_JSON', or CATALOGUE_ORIGIN. */
  origin: string;
  /** True when the sources are the built-in catalogue (no sources file). */
  catalogue: boolean;
}

let parsedCatalogue: SourceConfig[] | undefined;

/** The catalogue's entries, checked like a sources file (defaults applied); each must name its fields. */
export function catalogueEntries(): SourceConfig[] {
  if (!parsedCatalogue) {
    const sources = parseSourcesDocument({ sources: CATALOGUE_ENTRIES }, CATALOGUE_ORIGIN);
    const fieldless = sources.filter((source) => fieldsOf(source).length === 0).map((source) => source.name);
    if (fieldless.length) {
      throw new SourcesConfigError(`${CATALOGUE_ORIGIN}: entries without fields: ${fieldless.join(', ')}`);
    }
    parsedCatalogue = sources;
  }
  return parsedCatalogue;
}

/** The same URL on `origin` (path, query and fragment kept). */
function onOrigin(url: string, origin: string): string {
  const parsed = new URL(url);
  return new URL(`${parsed.pathname}${parsed.search}${parsed.hash}`, origin).toString();
}

/** A catalogue entry whose fetched URLs (baseUrl, url) point at the test origin. */
function withTestOrigin(source: SourceConfig, origin: string): SourceConfig {
  const moved: Record<string, unknown> = { ...source };
  for (const key of ['baseUrl', 'url'] as const) {
    const value = moved[key];
    if (typeof value === 'string') moved[key] = onOrigin(value, origin);
  }
  return moved as SourceConfig;
}

/**
 * The sources an installation has: the sources file's (or INGEST_SOURCES_JSON's), else the built-in
 * catalogue. INGEST_DISABLED_SOURCES switches entries of either off.
 */
export async function loadSourceList(
  settings: Pick<IngestSettings, 'sourcesFile' | 'sourcesJson' | 'disabledSources' | 'catalogueOriginForTests'>,
): Promise<SourceList> {
  const loaded = await loadSources(settings);
  if (loaded.origin !== 'none') return { ...loaded, catalogue: false };
  const disabled = new Set(settings.disabledSources ?? []);
  const testOrigin = settings.catalogueOriginForTests;
  const sources = catalogueEntries().map((entry) => {
    const source = testOrigin ? withTestOrigin(entry, testOrigin) : entry;
    return disabled.has(source.name) ? { ...source, enabled: false } : source;
  });
  return { sources, origin: CATALOGUE_ORIGIN, catalogue: true };
}

/** One source and whether it runs now. */
export interface SourceActivation {
  source: SourceConfig;
  /** Scheduled and run (when scheduled runs are on); an inactive source is skipped. */
  active: boolean;
  /** Why, in one line for operators, e.g. "2 readers name materials-science". */
  why: string;
  /** Of the source's fields, those at least one reader names. */
  readerFields: ResearchFieldId[];
  /** Readers naming at least one of the source's fields. */
  readers: number;
  /** Requirements of the entry (`requires`) this installation does not meet. */
  missing: SourceRequirement[];
}

export interface ResolvedSources {
  origin: string;
  catalogue: boolean;
  /** Every entry, in the file's (or catalogue's) order. */
  entries: SourceActivation[];
  /** The sources of the active entries. */
  active: SourceConfig[];
  /** Readers per field id (fields nobody names are absent). */
  readersByField: Map<string, number>;
}

const REQUIREMENT_MET: Record<SourceRequirement, (settings: Pick<IngestSettings, 'openAlexApiKey'>) => boolean> = {
  'openalex-key': (settings) => Boolean(settings.openAlexApiKey),
};
const REQUIREMENT_TEXT: Record<SourceRequirement, string> = { 'openalex-key': 'OPENALEX_API_KEY' };

const readersText = (count: number) => `${count} reader${count === 1 ? '' : 's'}`;

/**
 * Decides which of the installation's sources are active. A sources file's entries run while enabled;
 * a catalogue entry runs while enabled and some reader names one of its fields. Either kind stays off
 * while a requirement it names (`requires`) is not met. Reader counts come from the database.
 */
export async function resolveSources(deps: {
  repositories: Pick<IngestRepositories, 'readerFields'>;
  settings: IngestSettings;
}): Promise<ResolvedSources> {
  const list = await loadSourceList(deps.settings);
  const readers = deps.repositories.readerFields;
  const { byField: readersByField, perSet: perSource } = await readers.readerCounts(
    list.sources.map((source) => fieldsOf(source)),
  );
  const entries = list.sources.map((source, index): SourceActivation => {
    const readerFields = fieldsOf(source).filter((field) => (readersByField.get(field) ?? 0) > 0);
    const count = perSource[index] ?? 0;
    const missing = (source.requires ?? []).filter((requirement) => !REQUIREMENT_MET[requirement](deps.settings));
    const base = { source, readerFields, readers: count, missing };
    if (!source.enabled) {
      return { ...base, active: false, why: 'disabled (enabled: false or INGEST_DISABLED_SOURCES)' };
    }
    if (missing.length) {
      return { ...base, active: false, why: `needs ${missing.map((m) => REQUIREMENT_TEXT[m]).join(' and ')}` };
    }
    if (!list.catalogue) return { ...base, active: true, why: `listed in ${list.origin}` };
    if (count > 0) {
      return { ...base, active: true, why: `${readersText(count)} name ${readerFields.join(', ')}` };
    }
    return { ...base, active: false, why: `no reader names ${fieldsOf(source).join(', ')}` };
  });
  return {
    origin: list.origin,
    catalogue: list.catalogue,
    entries,
    active: entries.filter((entry) => entry.active).map((entry) => entry.source),
    readersByField,
  };
}
