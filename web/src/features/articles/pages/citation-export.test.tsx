// @vitest-environment happy-dom
import type { ArticleLibraryResponse, LibraryPaper } from '@radar/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testPaper, testUser } from '@/testing/api-fixtures';
import type { FakeApi } from '@/testing/fake-api';
import { renderApp, TEST_TOKEN, useFakeApi } from '@/testing/render-app';

const LIBRARY = '/articles/library/';
const LIBRARY_EXPORT = '/articles/library/export/';
const BIBTEX = '@article{chen2026message,\n  title = {Message passing networks for molecules},\n}\n';

const libraryPaper = (overrides: Partial<LibraryPaper> = {}): LibraryPaper => ({
  ...testPaper({ is_favorited: true }),
  read_progress: 0,
  marked_at: '2026-11-26T08:00:00.000Z',
  ...overrides,
});

function serveLibrary(api: FakeApi, results: LibraryPaper[]) {
  const answer: ArticleLibraryResponse = { results, count: results.length, next: null, previous: null };
  api.on('GET', LIBRARY, { body: answer });
}

const serveConfig = (api: FakeApi, features: string[]) =>
  api.on('GET', '/api/config/', { body: { support_email: null, time_zone: 'Asia/Shanghai', features } });

/** What the page handed to the browser's download: each file's text, type and the link's file name. */
let downloads: { text: Promise<string>; type: string; name?: string }[];
let restore: () => void;

beforeEach(() => {
  downloads = [];
  const originalCreate = URL.createObjectURL;
  const originalClick = HTMLAnchorElement.prototype.click;
  URL.createObjectURL = (blob: Blob) => {
    downloads.push({ text: blob.text(), type: blob.type });
    return 'blob:citation';
  };
  HTMLAnchorElement.prototype.click = function click(this: HTMLAnchorElement) {
    const last = downloads.at(-1);
    if (last) last.name = this.download;
  };
  restore = () => {
    URL.createObjectURL = originalCreate;
    HTMLAnchorElement.prototype.click = originalClick;
  };
});

afterEach(() => restore());

describe('导出: citation files from /library and the paper cards', () => {
  const api = useFakeApi();

  it('exports the favourites tab as BibTeX, and one card as RIS, with the reader’s token', async () => {
    serveConfig(api, ['citation_export']);
    serveLibrary(api, [
      libraryPaper({
        published_version: {
          journal: 'Computational Visual Media',
          doi: '10.1007/s41095-022-0271-y',
          url: 'https://doi.org/10.1007/s41095-022-0271-y',
          arrived_at: '2026-11-26T09:00:00.000Z',
        },
      }),
    ]);
    // Answers registered later match first: the library's own path before the per-paper pattern.
    api.on('GET', '/articles/:id/export/', {
      body: 'TY  - JOUR\nTI  - Message passing networks for molecules\nER  - \n',
      headers: {
        'Content-Type': 'application/x-research-info-systems; charset=utf-8',
        'Content-Disposition': 'attachment; filename="radar-paper-paper-1.ris"',
      },
    });
    api.on('GET', LIBRARY_EXPORT, {
      body: BIBTEX,
      headers: {
        'Content-Type': 'application/x-bibtex; charset=utf-8',
        'Content-Disposition': 'attachment; filename="radar-favorites-2026-11-27.bib"',
      },
    });
    const { user } = renderApp(api, '/library?list=favorited', { user: testUser() });

    // The journal version of the favourited preprint, with its DOI link.
    const card = await screen.findByRole('article');
    expect(within(card).getByTestId('paper-card-published').textContent).toContain(
      '已正式发表：Computational Visual Media',
    );
    expect(
      within(card)
        .getByRole('link', { name: /DOI: 10\.1007\/s41095-022-0271-y/ })
        .getAttribute('href'),
    ).toBe('https://doi.org/10.1007/s41095-022-0271-y');

    await user.click(await screen.findByRole('button', { name: '导出收藏' }));
    await user.click(await screen.findByRole('menuitem', { name: 'BibTeX' }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    const [request] = api.requestsTo('GET', LIBRARY_EXPORT);
    expect(request?.query).toEqual({ format: 'bibtex', list: 'favorited' });
    expect(request?.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(await downloads[0]?.text).toBe(BIBTEX);
    expect(downloads[0]).toMatchObject({
      type: 'application/x-bibtex; charset=utf-8',
      name: 'radar-favorites-2026-11-27.bib',
    });

    await user.click(within(card).getByRole('button', { name: '导出' }));
    await user.click(await screen.findByRole('menuitem', { name: 'RIS' }));
    expect(await screen.findByText('已导出 RIS 文件')).toBeTruthy();
    const paperExports = api.requestsTo('GET', '/articles/:id/export/').filter((sent) => sent.path !== LIBRARY_EXPORT);
    expect(paperExports.map((sent) => [sent.path, sent.query])).toEqual([
      ['/articles/paper-1/export/', { format: 'ris' }],
    ]);
    expect(downloads[1]?.name).toBe('radar-paper-paper-1.ris');
  });

  it('shows a failed export in Chinese', async () => {
    serveConfig(api, ['citation_export']);
    serveLibrary(api, [libraryPaper({ is_favorited: false, is_saved: true })]);
    api.on('GET', LIBRARY_EXPORT, {
      status: 400,
      body: { code: 'BAD_REQUEST', message: '导出格式 format 只能是 bibtex、ris、csljson' },
    });
    const { user } = renderApp(api, '/library?list=saved', { user: testUser() });

    await user.click(await screen.findByRole('button', { name: '导出稍后读' }));
    await user.click(await screen.findByRole('menuitem', { name: 'CSL-JSON' }));
    expect((await screen.findByTestId('library-export-error')).textContent).toContain('导出格式 format 只能是');
    expect(downloads).toEqual([]);
  });

  it('offers no export where the server does not name it (a backend with only the spec’s calls)', async () => {
    // No /api/config/ route: the fake API answers 404, as a spec-only backend would.
    serveLibrary(api, [libraryPaper()]);
    renderApp(api, '/library', { user: testUser() });

    const card = await screen.findByRole('article');
    expect(within(card).getByRole('button', { name: '收藏' })).toBeTruthy();
    await waitFor(() => expect(api.requestsTo('GET', '/api/config/').length).toBeGreaterThan(0));
    expect(screen.queryByRole('button', { name: /导出/ })).toBeNull();
    expect(within(card).queryByTestId('paper-card-published')).toBeNull();
  });
});
