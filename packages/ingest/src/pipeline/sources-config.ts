import fs from 'node:fs/promises';
import path from 'node:path';
import { RESEARCH_FIELD_IDS, type ResearchFieldId } from '@radar/shared';
import { ActionableError } from '@radar/shared/server';
import { parse as parseYamlText } from 'yaml';
import { z } from 'zod';
import { collectIssns } from '../text/identifiers';
import type { SourceKind } from '../types';

/**
 * The sources file (SOURCES_FILE, config/sources.yaml by default; documented in config/README.md):
 * every content source the worker fetches, one entry each, with its schedule. `.yaml`/`.yml` files are
 * read as YAML, anything else as JSON. Checked with zod so a mistake names the entry and field at
 * fault. `INGEST_SOURCES_JSON` (JSON) replaces the file, `INGEST_DISABLED_SOURCES` switches entries off.
 */

export class SourcesConfigError extends ActionableError {
  override name = 'SourcesConfigError';
}

/** When a source runs if its entry gives no schedule (cron, server time zone unless `timezone`). */
export const DEFAULT_SCHEDULES: Record<SourceKind, string> = {
  arxiv: '10 */6 * * *',
  'arxiv-rss': '20 */6 * * *',
  openalex: '30 3 * * *',
  crossref: '40 3 * * *',
  // bioRxiv and medRxiv post in daily batches: twice a day sees each batch within hours.
  biorxiv: '25 6,18 * * *',
  rss: '50 */4 * * *',
  'news-rss': '5 */2 * * *',
};

const cron = z
  .string()
  .trim()
  .regex(/^(\S+\s+){4,5}\S+$/, { message: 'must be a cron pattern with 5 or 6 fields, e.g. "0 */6 * * *"' })
  .refine((value) => /^[\d*/,\-?LW#A-Za-z\s]+$/.test(value), { message: 'has characters a cron pattern cannot have' });

const httpUrl = z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' });
const issnList = z.array(z.string()).transform((values, context) => {
  const issns = collectIssns(values);
  if (issns.length !== values.length) {
    context.addIssue({ code: 'custom', message: 'every entry must be an ISSN like 1476-4687' });
  }
  return issns;
});

const fieldId = z.enum(RESEARCH_FIELD_IDS as readonly [ResearchFieldId, ...ResearchFieldId[]], {
  message: `must be one of the research field ids (${RESEARCH_FIELD_IDS.join(', ')})`,
});

/** Requirements an entry may name in `requires`. */
const SOURCE_REQUIREMENTS = ['openalex-key'] as const;
export type SourceRequirement = (typeof SOURCE_REQUIREMENTS)[number];

const common = {
  /**
   * The research fields (ids of the 21) the source's items belong to: evidence for ranking, and in the
   * built-in catalogue the fields whose readers switch the source on. Left out: the source names none.
   */
  fields: z.array(fieldId).optional(),
  /**
   * What the entry needs to run: `openalex-key` (OPENALEX_API_KEY set). Without it the entry stays
   * off, and `pnpm radar sources list` says which requirement is missing.
   */
  requires: z.array(z.enum(SOURCE_REQUIREMENTS)).optional(),
  /** Unique; used in `pnpm radar ingest <name>`, job ids and papers.source. */
  name: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]{0,62}$/, { message: 'must be lower-case letters, digits, ".", "_" or "-"' }),
  enabled: z.boolean().default(true),
  schedule: cron.optional(),
  /** IANA time zone of the schedule, e.g. Asia/Shanghai. */
  timezone: z.string().optional(),
  /** Most items one run stores (newest first where the source can sort). */
  maxItems: z.number().int().min(1).max(100_000).optional(),
  timeoutMs: z.number().int().min(100).max(600_000).optional(),
  /** Largest response body read; a longer feed is cut there (with a warning). */
  maxBytes: z
    .number()
    .int()
    .min(1024)
    .max(500 * 1024 * 1024)
    .optional(),
};

const arxivSource = z
  .object({
    ...common,
    kind: z.literal('arxiv'),
    /** arXiv categories such as cs.AI, q-bio.NC; OR-ed. */
    categories: z.array(z.string().regex(/^[a-zA-Z-]+(\.[a-zA-Z-]+)?$/, { message: 'must be like cs.AI' })).default([]),
    /** Extra arXiv search_query clause, AND-ed: e.g. abs:"graph neural". */
    query: z.string().optional(),
    /** How far back the first run (or a run after a long pause) looks. */
    lookbackDays: z.number().int().min(1).max(365).default(3),
    pageSize: z.number().int().min(1).max(2000).default(100),
    baseUrl: httpUrl.default('https://export.arxiv.org/api/query'),
  })
  .refine((source) => source.categories.length > 0 || Boolean(source.query?.trim()), {
    message: 'needs categories or a query',
  });

const arxivRssSource = z
  .object({
    ...common,
    kind: z.literal('arxiv-rss'),
    categories: z.array(z.string().regex(/^[a-zA-Z-]+(\.[a-zA-Z-]+)?$/)).default([]),
    /** A full feed URL instead of categories. */
    url: httpUrl.optional(),
    /** Also store replaced (re-versioned) papers not yet in the database. */
    includeReplacements: z.boolean().default(false),
    baseUrl: httpUrl.default('https://rss.arxiv.org/rss/'),
  })
  .refine((source) => source.categories.length > 0 || Boolean(source.url), { message: 'needs categories or url' });

const openAlexSource = z
  .object({
    ...common,
    kind: z.literal('openalex'),
    /** Journals by ISSN (print or electronic). */
    issns: issnList.default([]),
    /** OpenAlex topic ids (T10036) and concept ids (C41008148, being retired by OpenAlex). */
    topics: z.array(z.string().regex(/^(https:\/\/openalex\.org\/)?T\d+$/i)).default([]),
    concepts: z.array(z.string().regex(/^(https:\/\/openalex\.org\/)?C\d+$/i)).default([]),
    /** Further OpenAlex filter clauses, AND-ed, e.g. "type:article,language:en". */
    filter: z.string().optional(),
    /** OpenAlex full-text search (title, abstract, full text): words AND-ed, OR and NOT in capitals, "quoted phrases". */
    search: z.string().optional(),
    /** Newest first (the default), or the best matches of `search` first. */
    sort: z.enum(['publication_date:desc', 'relevance_score:desc']).default('publication_date:desc'),
    lookbackDays: z.number().int().min(1).max(365).default(7),
    perPage: z.number().int().min(1).max(100).default(100),
    baseUrl: httpUrl.default('https://api.openalex.org'),
  })
  .refine(
    (source) =>
      source.issns.length + source.topics.length + source.concepts.length > 0 ||
      Boolean(source.filter?.trim() || source.search?.trim()),
    { message: 'needs issns, topics, concepts, filter or search' },
  )
  .refine((source) => source.sort !== 'relevance_score:desc' || Boolean(source.search?.trim()), {
    message: 'sort relevance_score:desc needs a search',
  });

const crossrefSource = z.object({
  ...common,
  kind: z.literal('crossref'),
  issns: issnList.refine((issns) => issns.length > 0, { message: 'needs at least one ISSN' }),
  /**
   * Only works with an abstract (Crossref's has-abstract filter). Off by default: many publishers deposit
   * no abstracts, and the title alone still ranks; on for journals whose abstract-less records are mostly
   * corrections, news and editorials.
   */
  requireAbstract: z.boolean().default(false),
  lookbackDays: z.number().int().min(1).max(365).default(14),
  rows: z.number().int().min(1).max(1000).default(100),
  baseUrl: httpUrl.default('https://api.crossref.org'),
});

const biorxivSource = z.object({
  ...common,
  kind: z.literal('biorxiv'),
  /** Which server of api.biorxiv.org: bioRxiv (biology) or medRxiv (health sciences). */
  server: z.enum(['biorxiv', 'medrxiv']),
  /**
   * Subject categories as the server names them ("neuroscience", "cell biology", "infectious diseases";
   * case and "_" for spaces do not matter). Left out: every category.
   */
  categories: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z][A-Za-z _/&(),-]{1,80}$/, { message: 'must be a subject category such as "cell biology"' }),
    )
    .default([]),
  /** How far back the first run (or a run after a long pause) looks; new versions of older preprints come too. */
  lookbackDays: z.number().int().min(1).max(90).default(3),
  baseUrl: httpUrl.default('https://api.biorxiv.org'),
});

const journalRef = z.union([
  z.string().min(1),
  z.object({
    name: z.string().min(1),
    issn: z.string().optional(),
    eissn: z.string().optional(),
    publisher: z.string().optional(),
  }),
]);

const rssSource = z.object({
  ...common,
  kind: z.literal('rss'),
  url: httpUrl,
  /** The journal of the feed (name, and ISSNs for the tier); else taken from the feed. */
  journal: journalRef.optional(),
  /** The feed is a preprint server's (bioRxiv, ...): no journal tier. */
  isPreprintServer: z.boolean().default(false),
});

const newsRssSource = z.object({
  ...common,
  kind: z.literal('news-rss'),
  url: httpUrl,
  /** Shown on every news item of this feed. */
  institute: z.string().min(1).max(200),
  homepage: httpUrl.optional(),
});

export const sourceConfigSchema = z.discriminatedUnion('kind', [
  arxivSource,
  arxivRssSource,
  openAlexSource,
  crossrefSource,
  biorxivSource,
  rssSource,
  newsRssSource,
]);

export type SourceConfig = z.infer<typeof sourceConfigSchema>;
export type SourceConfigOf<K extends SourceKind> = Extract<SourceConfig, { kind: K }>;

const sourcesFileSchema = z.object({
  sources: z.array(sourceConfigSchema),
});

export interface LoadedSources {
  sources: SourceConfig[];
  /** Where they came from, for messages: a path, 'INGEST_SOURCES_JSON', or 'none'. */
  origin: string;
}

export interface SourcesLocation {
  sourcesFile: string;
  sourcesJson?: string | undefined;
  disabledSources?: readonly string[];
}

function formatIssues(error: z.ZodError, document: unknown): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const [first, index, ...rest] = issue.path;
      let where = issue.path.join('.');
      if (first === 'sources' && typeof index === 'number') {
        const entry = (document as { sources?: { name?: unknown }[] }).sources?.[index];
        const name = typeof entry?.name === 'string' ? ` "${entry.name}"` : '';
        where = `sources[${index}]${name}${rest.length ? `.${rest.join('.')}` : ''}`;
      }
      return `${where || 'file'}: ${issue.message}`;
    })
    .join('; ');
}

/** `JSON.parse`, with the line and column of a syntax error (Node names only the character position). */
function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    // Newer Node versions name the line themselves.
    if (!position || /line \d+/.test(message)) throw new SourcesConfigError(`${what}: not valid JSON: ${message}`);
    const before = text.slice(0, Number(position[1]));
    const line = before.split('\n').length;
    const column = before.length - before.lastIndexOf('\n');
    throw new SourcesConfigError(`${what}: not valid JSON at line ${line}, column ${column}: ${message}`);
  }
}

/** YAML 1.2 (JSON is YAML too, but a .json file gets JSON's stricter reading and messages). */
function parseYaml(text: string, what: string): unknown {
  try {
    return parseYamlText(text);
  } catch (error) {
    // The yaml package's message is "<what> at line L, column C:" followed by the lines around it.
    const first = ((error as Error).message.split('\n')[0] ?? '').replace(/:$/, '');
    const hint = /alias/i.test(first) ? ' (a value starting with * must be quoted, e.g. schedule: "*/5 * * * *")' : '';
    throw new SourcesConfigError(`${what}: not valid YAML: ${first}${hint}`);
  }
}

export function parseSourcesDocument(document: unknown, origin: string): SourceConfig[] {
  const parsed = sourcesFileSchema.safeParse(document);
  if (!parsed.success) throw new SourcesConfigError(`${origin}: ${formatIssues(parsed.error, document)}`);
  const names = new Set<string>();
  for (const source of parsed.data.sources) {
    if (names.has(source.name)) throw new SourcesConfigError(`${origin}: two sources are named "${source.name}"`);
    names.add(source.name);
  }
  return parsed.data.sources;
}

/**
 * Reads the sources file (or INGEST_SOURCES_JSON); a missing file gives no sources and origin 'none'.
 * Callers that run sources use `loadSourceList()` (src/catalogue), which puts the built-in catalogue
 * in place of a missing file.
 */
export async function loadSources(location: SourcesLocation): Promise<LoadedSources> {
  let sources: SourceConfig[];
  let origin: string;
  if (location.sourcesJson) {
    origin = 'INGEST_SOURCES_JSON';
    sources = parseSourcesDocument(parseJson(location.sourcesJson, origin), origin);
  } else {
    let text: string;
    try {
      text = await fs.readFile(location.sourcesFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { sources: [], origin: 'none' };
      throw new SourcesConfigError(`cannot read SOURCES_FILE ${location.sourcesFile}: ${(error as Error).message}`);
    }
    origin = path.relative(process.cwd(), location.sourcesFile) || location.sourcesFile;
    const document = /\.ya?ml$/i.test(location.sourcesFile) ? parseYaml(text, origin) : parseJson(text, origin);
    sources = parseSourcesDocument(document, origin);
  }
  const disabled = new Set(location.disabledSources ?? []);
  return {
    sources: sources.map((source) => (disabled.has(source.name) ? { ...source, enabled: false } : source)),
    origin,
  };
}

/** The research fields a source's entry declares (none when it names none). */
export function fieldsOf(source: SourceConfig): readonly ResearchFieldId[] {
  return source.fields ?? [];
}

export function scheduleOf(source: SourceConfig): string {
  return source.schedule ?? DEFAULT_SCHEDULES[source.kind];
}

/** The journal an `rss` source declares, normalised. */
export function declaredJournal(
  source: SourceConfigOf<'rss'>,
): { name: string; issns: string[]; publisher?: string } | undefined {
  if (!source.journal) return undefined;
  if (typeof source.journal === 'string') return { name: source.journal, issns: [] };
  return {
    name: source.journal.name,
    issns: collectIssns([source.journal.issn, source.journal.eissn]),
    ...(source.journal.publisher ? { publisher: source.journal.publisher } : {}),
  };
}
