import type { ResearchProfileExtractor } from '@radar/ai';
import type { AsyncTaskRepository, OwnWorkRepository } from '@radar/db';
import type { OwnWorksSource, ResearchProfileResult } from '@radar/shared';
import type { Logger } from 'pino';
import { HttpClient } from '../adapters/http';
import { ContentStore, type ContentStoreRepositories } from '../pipeline/content-store';
import { type EnqueueJob, enqueueEnrichment } from '../pipeline/enrichment';
import type { IngestSettings } from '../pipeline/settings';
import { type PaperDraft, PermanentSourceError } from '../types';
import { fillAbstractsByDoi } from './abstract-fill';
import { fetchOpenAlexAuthorWorks } from './openalex-author';
import { fetchOrcidWorks } from './orcid';

/** The kind of an own-works task in radar.async_tasks (polled like a research-direction task). */
export const OWN_WORKS_TASK_KIND = 'own-works';
/** ContentStore's source name of papers stored from a reader's own works. */
const OWN_WORKS_SOURCE = 'own-works';
/** The longest text of titles and abstracts handed to the research-profile extractor. */
const MAX_PROFILE_TEXT = 6_000;
/** Characters of each abstract in that text: titles of many works say more than one long abstract. */
const ABSTRACT_SHARE = 500;

/** What an own-works task's input holds (radar.async_tasks.input). */
export type OwnWorksTaskInput =
  | { source: 'orcid' | 'openalex'; author_id: string; limit: number }
  | { source: 'library'; file_name: string; format: string; works: PaperDraft[]; total: number };

/** The task failed for good; the task row already says so, with `message` for the reader. */
export class OwnWorksTaskFailedError extends Error {
  override name = 'OwnWorksTaskFailedError';
}

const MESSAGES = {
  orcidNotFound: '在 ORCID 找不到这个 iD 的公开记录，请检查后重试',
  openAlexNotFound: '在 OpenAlex 找不到这个作者编号，请检查后重试',
  unreachable: (service: string) => `暂时无法从 ${service} 读取作品，请稍后重试`,
  noWorks: '没有找到公开的作品，请确认作品在记录中设为公开',
  noKey: '本站未配置 OpenAlex，无法按 OpenAlex 作者编号导入',
  failed: '导入作品失败，请重试',
  notice: (stored: number) => `已把您的 ${stored} 篇作品记为喜欢的论文，推荐会参考它们。`,
  unstored: (count: number) => `${count} 篇作品没有 DOI、arXiv 编号或链接，只用于生成研究方向，没有保存为论文。`,
  notSaved: (count: number) => `${count} 篇作品只用于生成研究方向，没有保存为论文。`,
} as const;

const SERVICE_NAMES: Record<OwnWorksSource, string> = { orcid: 'ORCID', openalex: 'OpenAlex', library: '文件' };

export interface OwnWorksDeps {
  /** Where the works are stored as papers (IngestRepositories has them). */
  repositories: ContentStoreRepositories;
  tasks: AsyncTaskRepository;
  /** Marks the stored works as the reader's own. */
  ownWorks: OwnWorkRepository;
  extractor: ResearchProfileExtractor;
  settings: IngestSettings;
  /** Content-embed jobs for the papers stored new (their vectors make them learning signals). */
  enqueue: EnqueueJob;
  /** After the works are marked: recompute the reader's learned profile. */
  afterMarked?: ((userId: string) => Promise<void>) | undefined;
  logger?: Logger | undefined;
}

/** The text the profile is drafted from: each work's title and the start of its abstract, newest first. */
function ownWorksText(works: readonly PaperDraft[]): string {
  const parts: string[] = [];
  let length = 0;
  for (const work of works) {
    const abstract = work.abstract.replace(/\s+/g, ' ').trim();
    const cut =
      abstract.length > ABSTRACT_SHARE ? `${abstract.slice(0, ABSTRACT_SHARE).replace(/\s\S*$/, '')}…` : abstract;
    const part = `${work.title
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[.。]$/, '')}.${cut ? ` ${cut}` : ''}`;
    if (length + part.length > MAX_PROFILE_TEXT) break;
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('\n\n');
}

/** Titles in the draft made when the analysis wrote no summary (offline rules find none in bare titles). */
const DRAFT_TITLES = 10;

/**
 * An English draft from the works' titles, for the reader to confirm or rewrite: the offline rules take
 * only sentences that describe research, and a list of titles has none. The titles are the reader's
 * own English words about their work, so they are a fair start.
 */
function titlesDraft(works: readonly PaperDraft[]): string {
  const titles = works
    .map((work) =>
      work.title
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/[.。]$/, ''),
    )
    .filter((title) => /[A-Za-z]{3}/.test(title))
    .slice(0, DRAFT_TITLES);
  return titles.length ? `My recent work: ${titles.join('; ')}.`.slice(0, 3_000) : '';
}

function httpClient(settings: IngestSettings): HttpClient {
  return new HttpClient({
    userAgent: settings.userAgent,
    timeoutMs: settings.httpTimeoutMs,
    // The reader waits in the dialog: one quick retry, then the job's own retries.
    maxAttempts: 2,
    retryBaseDelayMs: Math.min(settings.httpRetryBaseDelayMs, 1_000),
    maxRetryAfterMs: 10_000,
  });
}

async function readWorks(
  deps: OwnWorksDeps,
  http: HttpClient,
  input: OwnWorksTaskInput,
  signal?: AbortSignal,
): Promise<{ works: PaperDraft[]; total: number }> {
  if (input.source === 'library') return { works: input.works, total: input.total };
  if (input.source === 'orcid') {
    return fetchOrcidWorks(http, {
      baseUrl: deps.settings.orcidBaseUrl,
      orcidId: input.author_id,
      limit: input.limit,
      signal,
    });
  }
  const apiKey = deps.settings.openAlexApiKey;
  if (!apiKey) throw new OwnWorksTaskFailedError(MESSAGES.noKey);
  return fetchOpenAlexAuthorWorks(http, {
    baseUrl: deps.settings.openAlexBaseUrl,
    apiKey,
    authorId: input.author_id,
    limit: input.limit,
    signal,
  });
}

/**
 * One attempt at an own-works task: read the reader's works (ORCID, OpenAlex, or the parsed file kept
 * in the task), fill in missing abstracts by DOI, store the works as papers only this reader sees
 * (deduplicated like any ingested paper; a work already stored is found, not rewritten) marked as the
 * reader's own (liked for learning), and draft the research profile
 * from their titles and abstracts with the same extractor as a homepage analysis. The result's English
 * summary is marked 'own-works': the dialog shows it for the reader to confirm. Idempotent: a finished
 * task is left alone, stored papers are found again, marking twice changes nothing.
 *
 * Failures a retry cannot fix (an unknown iD, no public works) and failures on the last attempt fail
 * the task with a message; others are rethrown for the queue to retry.
 */
export async function runOwnWorksTask(
  deps: OwnWorksDeps,
  taskId: string,
  options: { isFinalAttempt: boolean; signal?: AbortSignal },
): Promise<{ outcome: 'completed'; stored: number } | { outcome: 'skipped'; reason: string }> {
  const task = await deps.tasks.startAttempt(taskId);
  if (!task) return { outcome: 'skipped', reason: 'task is missing or already finished' };
  const input = task.input as OwnWorksTaskInput;
  const failFor = async (message: string): Promise<never> => {
    await deps.tasks.fail(taskId, message);
    throw new OwnWorksTaskFailedError(message);
  };
  const progress = (value: number) => deps.tasks.reportProgress(taskId, Math.round(value));
  const http = httpClient(deps.settings);
  try {
    await progress(5);
    let read: { works: PaperDraft[]; total: number };
    try {
      read = await readWorks(deps, http, input, options.signal);
    } catch (error) {
      if (error instanceof OwnWorksTaskFailedError) return await failFor(error.message);
      if (error instanceof PermanentSourceError && / answered 404\b/.test(error.message)) {
        return await failFor(input.source === 'orcid' ? MESSAGES.orcidNotFound : MESSAGES.openAlexNotFound);
      }
      if (error instanceof PermanentSourceError || options.isFinalAttempt) {
        return await failFor(MESSAGES.unreachable(SERVICE_NAMES[input.source]));
      }
      throw error;
    }
    const { works } = read;
    if (!works.length) return await failFor(MESSAGES.noWorks);
    await progress(30);

    await fillAbstractsByDoi(
      http,
      works,
      {
        crossrefBaseUrl: deps.settings.crossrefBaseUrl,
        crossrefMailto: deps.settings.crossrefMailto,
        openAlex: deps.settings.openAlexApiKey
          ? { baseUrl: deps.settings.openAlexBaseUrl, apiKey: deps.settings.openAlexApiKey }
          : undefined,
      },
      { signal: options.signal, onLookup: (done, total) => progress(30 + (30 * done) / total) },
    );
    await progress(60);

    // The works become papers only this reader sees until a public source brings them; a work already
    // stored is only marked as theirs, never rewritten from their file.
    const store = new ContentStore(deps.repositories, { source: OWN_WORKS_SOURCE, privateTo: task.userId });
    const paperIds: number[] = [];
    const newPaperIds: number[] = [];
    let withoutIdentifier = 0;
    for (const work of works) {
      const outcome = await store.storePaper(work);
      if (outcome.outcome === 'added' || outcome.outcome === 'updated' || outcome.outcome === 'unchanged') {
        paperIds.push(outcome.id);
        if (outcome.outcome === 'added') newPaperIds.push(outcome.id);
      } else if (outcome.outcome === 'rejected' && outcome.reason === 'no identifier') {
        withoutIdentifier += 1;
      }
    }
    const stored = await deps.ownWorks.markAuthored(task.userId, paperIds);
    await enqueueEnrichment(
      deps.enqueue,
      { newPaperIds, changedPaperIds: [], newNewsIds: [], changedNewsIds: [] },
      { summaries: false },
    );
    await deps.afterMarked?.(task.userId);
    await progress(70);

    const extracted = await deps.extractor.extract(ownWorksText(works), {
      ...(options.signal ? { signal: options.signal } : {}),
      onProgress: (value) => progress(70 + value * 0.29),
    });
    const unstored = works.length - paperIds.length;
    // Works whose record someone else uploaded privately: used for the profile, said without naming why.
    const notSaved = unstored - withoutIdentifier;
    const summary = extracted.research_summary_en || titlesDraft(works);
    const result: ResearchProfileResult = {
      ...extracted,
      research_summary_en: summary,
      // The works name their co-authors, not who the reader is: the profile's personal fields stay as they are.
      name: '',
      email: '',
      institution: '',
      position: '',
      research_direction_origin: summary ? 'own-works' : undefined,
      notices: [
        ...extracted.notices,
        MESSAGES.notice(stored),
        ...(withoutIdentifier > 0 ? [MESSAGES.unstored(withoutIdentifier)] : []),
        ...(notSaved > 0 ? [MESSAGES.notSaved(notSaved)] : []),
      ],
      own_works: {
        source: input.source,
        found: read.total,
        stored,
        with_abstract: works.filter((work) => work.abstract.trim() !== '').length,
      },
    };
    if (!result.research_direction_origin) delete result.research_direction_origin;
    const completed = await deps.tasks.complete(taskId, result);
    return completed ? { outcome: 'completed', stored } : { outcome: 'skipped', reason: 'task finished meanwhile' };
  } catch (error) {
    if (error instanceof OwnWorksTaskFailedError) throw error;
    deps.logger?.warn({ taskId, source: input.source, err: (error as Error).message }, 'own-works task failed');
    if (options.isFinalAttempt) return failFor(MESSAGES.failed);
    throw error;
  }
}
