import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEDULES, loadSources, SourcesConfigError, scheduleOf } from '../src/sources-config';

const EXAMPLE = fileURLToPath(new URL('../../../config/sources.example.json', import.meta.url));
let tmp: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'radar-sources-config-'));
});

afterAll(async () => {
  await fs.rm(tmp, { recursive: true, force: true });
});

const write = async (name: string, content: unknown) => {
  const file = path.join(tmp, name);
  await fs.writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
};

describe('sources file', () => {
  it('accepts the documented example, with an example of every kind', async () => {
    const { sources } = await loadSources({ sourcesFile: EXAMPLE });
    expect(new Set(sources.map((source) => source.kind))).toEqual(
      new Set(['arxiv', 'arxiv-rss', 'openalex', 'crossref', 'rss', 'news-rss']),
    );
    const openalex = sources.find((source) => source.name === 'openalex-endocrinology');
    expect(openalex).toMatchObject({ issns: ['22138587', '0163769X'], baseUrl: 'https://api.openalex.org' });
  });

  it('means no sources when the file is missing', async () => {
    expect(await loadSources({ sourcesFile: path.join(tmp, 'absent.json') })).toEqual({ sources: [], origin: 'none' });
  });

  it('names the entry and field at fault', async () => {
    const file = await write('bad.json', {
      sources: [
        { name: 'ok', kind: 'news-rss', url: 'https://example.org/feed', institute: 'X' },
        { name: 'no-institute', kind: 'news-rss', url: 'https://example.org/feed' },
      ],
    });
    await expect(loadSources({ sourcesFile: file })).rejects.toThrow(/sources\[1\] "no-institute"\.institute/);
    const kinds = await write('kind.json', { sources: [{ name: 'x', kind: 'ftp' }] });
    await expect(loadSources({ sourcesFile: kinds })).rejects.toBeInstanceOf(SourcesConfigError);
    const cron = await write('cron.json', {
      sources: [{ name: 'x', kind: 'crossref', issns: ['2167-8359'], schedule: 'daily' }],
    });
    await expect(loadSources({ sourcesFile: cron })).rejects.toThrow(/cron pattern/);
    const issn = await write('issn.json', { sources: [{ name: 'x', kind: 'crossref', issns: ['not-an-issn'] }] });
    await expect(loadSources({ sourcesFile: issn })).rejects.toThrow(/ISSN/);
    const twice = await write('twice.json', {
      sources: [
        { name: 'x', kind: 'arxiv', categories: ['cs.AI'] },
        { name: 'x', kind: 'arxiv', categories: ['cs.LG'] },
      ],
    });
    await expect(loadSources({ sourcesFile: twice })).rejects.toThrow(/two sources are named "x"/);
    const json = await write('broken.json', '{ "sources": [ ');
    await expect(loadSources({ sourcesFile: json })).rejects.toThrow(/not valid JSON/);
  });

  it('is overridden by the environment: inline JSON, and sources switched off by name', async () => {
    const inline = JSON.stringify({ sources: [{ name: 'only', kind: 'arxiv', categories: ['cs.AI'] }] });
    const loaded = await loadSources({ sourcesFile: EXAMPLE, sourcesJson: inline, disabledSources: ['only'] });
    expect(loaded.origin).toBe('INGEST_SOURCES_JSON');
    expect(loaded.sources).toMatchObject([{ name: 'only', enabled: false }]);
    expect(scheduleOf(loaded.sources[0] as never)).toBe(DEFAULT_SCHEDULES.arxiv);
  });

  it('reads a .yaml file written as JSON while the yaml package is not installed', async () => {
    const file = await write('sources.yaml', { sources: [{ name: 'y', kind: 'arxiv', categories: ['cs.AI'] }] });
    expect((await loadSources({ sourcesFile: file })).sources.map((source) => source.name)).toEqual(['y']);
  });
});
