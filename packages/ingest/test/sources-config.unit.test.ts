import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@radar/shared/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_SCHEDULES, loadSources, SourcesConfigError, scheduleOf } from '../src/pipeline/sources-config';

const EXAMPLE = fileURLToPath(new URL('../../../config/sources.example.yaml', import.meta.url));
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
      new Set(['arxiv', 'arxiv-rss', 'openalex', 'crossref', 'biorxiv', 'rss', 'news-rss']),
    );
    const openalex = sources.find((source) => source.name === 'openalex-endocrinology');
    expect(openalex).toMatchObject({ issns: ['22138587', '0163769X'], baseUrl: 'https://api.openalex.org' });
    const medrxiv = sources.find((source) => source.kind === 'biorxiv');
    expect(medrxiv).toMatchObject({ server: 'medrxiv', lookbackDays: 3, baseUrl: 'https://api.biorxiv.org' });
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
  });

  it('is overridden by the environment: inline JSON, and sources switched off by name', async () => {
    const inline = JSON.stringify({ sources: [{ name: 'only', kind: 'arxiv', categories: ['cs.AI'] }] });
    const loaded = await loadSources({ sourcesFile: EXAMPLE, sourcesJson: inline, disabledSources: ['only'] });
    expect(loaded.origin).toBe('INGEST_SOURCES_JSON');
    expect(loaded.sources).toMatchObject([{ name: 'only', enabled: false }]);
    expect(scheduleOf(loaded.sources[0] as never)).toBe(DEFAULT_SCHEDULES.arxiv);
  });

  it('reads JSON too: the example written as JSON gives the same sources', async () => {
    const asJson = await write('example.json', JSON.stringify(parseYaml(await fs.readFile(EXAMPLE, 'utf8'))));
    expect((await loadSources({ sourcesFile: asJson })).sources).toEqual(
      (await loadSources({ sourcesFile: EXAMPLE })).sources,
    );
    // A .yaml (or .yml) file may be written as JSON: JSON is YAML.
    const yml = await write('sources.yml', { sources: [{ name: 'y', kind: 'arxiv', categories: ['cs.AI'] }] });
    expect((await loadSources({ sourcesFile: yml })).sources.map((source) => source.name)).toEqual(['y']);
  });

  it('refuses a broken YAML file in one line naming the line', async () => {
    const file = await write(
      'broken.yaml',
      ['sources:', '  - name: a', '    kind: arxiv', '   categories: [cs.AI]', ''].join('\n'),
    );
    const error = await loadSources({ sourcesFile: file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourcesConfigError);
    expect((error as Error).message).toMatch(/broken\.yaml: not valid YAML: .* at line 4, column \d+$/);
    expect((error as Error).message).not.toContain('\n');

    // An unquoted cron pattern starting with * is a YAML alias: the message says to quote it.
    const cron = await write('cron.yaml', ['sources:', '  - name: a', '    schedule: */5 * * * *', ''].join('\n'));
    await expect(loadSources({ sourcesFile: cron })).rejects.toThrow(/line 3.*must be quoted, e\.g\. schedule: "\*\/5/);
  });

  it('reads a .json file as JSON, naming the line and column of a syntax error', async () => {
    const file = await write('broken.json', '{\n  "sources": [\n    { "name": "a", }\n  ]\n}\n');
    const error = await loadSources({ sourcesFile: file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourcesConfigError);
    expect((error as Error).message).toMatch(/broken\.json: not valid JSON .*line 3/);
    expect((error as Error).message).not.toContain('\n');
    // YAML in a .json file is not JSON.
    const yamlInJson = await write('yaml.json', 'sources: []\n');
    await expect(loadSources({ sourcesFile: yamlInJson })).rejects.toThrow(/yaml\.json: not valid JSON/);
    await expect(loadSources({ sourcesFile: EXAMPLE, sourcesJson: 'sources: []' })).rejects.toThrow(
      /^INGEST_SOURCES_JSON: not valid JSON/,
    );
  });

  it('defaults to config/sources.yaml, or config/sources.json when only that exists', async () => {
    const root = await fs.mkdtemp(path.join(tmp, 'root-'));
    await fs.mkdir(path.join(root, 'config'));
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const sourcesFile = () => loadConfig({}).ingest.sourcesFile;
      expect(sourcesFile()).toBe(path.join(root, 'config/sources.yaml'));
      await fs.writeFile(path.join(root, 'config/sources.json'), '{"sources": []}');
      expect(sourcesFile()).toBe(path.join(root, 'config/sources.json'));
      await fs.writeFile(path.join(root, 'config/sources.yaml'), 'sources: []\n');
      expect(sourcesFile()).toBe(path.join(root, 'config/sources.yaml'));
      expect(loadConfig({ SOURCES_FILE: 'elsewhere/radar.json' }).ingest.sourcesFile).toBe(
        path.join(root, 'elsewhere/radar.json'),
      );
    } finally {
      process.chdir(cwd);
    }
  });
});
