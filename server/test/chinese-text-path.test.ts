import { syntheticPapers } from '@radar/ai/testing';
import { KeywordRepository, NewsRepository, PaperRepository, UserRepository } from '@radar/db';
import { MailLinkTokens } from '@radar/mail';
import { API_PATHS, deliveryFeedTokenResponseSchema } from '@radar/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeywordService } from '../src/features/keywords/keyword.service';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * One Chinese text path, every channel, offline (built-in model, no LLM), through the API: a Chinese
 * word a biologist types reaches the same English papers and news in article search, news keyword and
 * semantic search, a followed keyword's matches and a research interest typed in Chinese; Chinese news
 * is placed by the glossary terms it shares with her English summary, and its reason names them.
 */

const BIOLOGY_PAPERS = [
  [
    'The gut microbiome shapes intestinal immunity',
    'Commensal bacteria of the gut microbiome train mucosal immune cells and protect mice from colitis.',
  ],
  [
    'Inflammatory bowel disease and the intestinal epithelium',
    'Epithelial repair after injury in inflammatory bowel disease depends on intestinal stem cells.',
  ],
  [
    'Intestinal stem cells drive epithelial regeneration',
    'Lineage tracing in mice shows that intestinal stem cells regenerate the epithelium after damage.',
  ],
  [
    'Single-cell sequencing of the inflamed colon',
    'Single-cell sequencing maps immune and epithelial cell states in inflammatory bowel disease.',
  ],
  [
    'Microbial metabolites regulate gut barrier function',
    'Short-chain fatty acids produced by the gut microbiota strengthen the intestinal barrier.',
  ],
] as const;

const NEWS = {
  ibd: ['炎症性肠病治疗研究取得新进展', '研究团队发现肠道菌群调控肠道干细胞再生，为炎症性肠病治疗提供新思路。'],
  perovskite: ['新型钙钛矿太阳能电池效率创纪录', '材料学院团队研制的钙钛矿太阳能电池光电转换效率创造新纪录。'],
  economy: ['经济学院发布通货膨胀研究报告', '报告分析了通货膨胀与货币政策对劳动力市场和家庭消费的影响。'],
  arts: ['艺术学院举办当代油画作品展', '展览汇集了青年艺术家的油画与雕塑作品，探讨城市记忆与色彩。'],
  microbiome: [
    'Gut microbiome study links diet to immunity',
    'Researchers found that the gut microbiome responds to diet and shapes immunity in mice.',
  ],
} as const;

const SUMMARY =
  'Research interests: gut microbiota, inflammatory bowel disease, intestinal stem cell, epithelial regeneration, single-cell sequencing.';

describe('a Chinese word reaches the same English in every channel', () => {
  let runtime: TestRuntime;
  let headers: Record<string, string>;
  const paperIds: string[] = [];
  const newsIds: Record<string, string> = {};

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
    runtime.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
    const db = runtime.database.db;
    const inserted = await new PaperRepository(db).insertMany([
      ...syntheticPapers(120, 5).map((paper, index) => ({
        title: paper.title,
        abstract: paper.abstract,
        source: 'test',
        url: `https://papers.example.org/s${index}`,
      })),
      ...BIOLOGY_PAPERS.map(([title, abstract], index) => ({
        title,
        abstract,
        source: 'test',
        url: `https://papers.example.org/bio${index}`,
      })),
    ]);
    paperIds.push(...inserted.slice(-BIOLOGY_PAPERS.length).map((paper) => String(paper.id)));
    const news = new NewsRepository(db);
    const items = await news.insertMany(
      Object.entries(NEWS).map(([key, [title, content]]) => ({
        title,
        content,
        url: `https://news.example.edu.cn/${key}`,
        urlNormalized: `news.example.edu.cn/${key}`,
        source: 'test',
        publishDate: new Date(Date.now() - 86_400_000),
      })),
    );
    Object.keys(NEWS).forEach((key, index) => {
      newsIds[key] = String(items[index]?.id);
    });
    await news.analyze();
    const { embeddings } = runtime.parts.ai;
    expect((await embeddings.refitIfDue({ force: true })).refitted).toBe(true);
    await embeddings.reembedStale();
    const user = await new UserRepository(db).create({
      email: 'biologist@example.org',
      isEmailVerified: true,
      // A reader who can log in: the digest channels serve only such accounts.
      passwordHash: 'argon2id-hash',
      researchSummaryEn: SUMMARY,
    });
    headers = { authorization: `Bearer ${await runtime.app.signIn(user)}` };
  }, 300_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('article search: 肠道菌群 and 肠道 find the English gut microbiome papers', async () => {
    for (const q of ['肠道菌群', '肠道']) {
      const response = await call('GET', `/articles/search/?q=${encodeURIComponent(q)}`);
      expect(response.statusCode, response.body).toBe(200);
      const ids = response.json().results.map((paper: { id: string | number }) => String(paper.id));
      expect(ids, q).toContain(paperIds[0]);
    }
  });

  it('news keyword search: 肠道菌群 finds the English item and the Chinese one', async () => {
    const response = await call('POST', '/api/news/search/', { query: '肠道菌群', search_type: 'keyword' });
    expect(response.statusCode, response.body).toBe(200);
    const ids = response.json().data.map((item: { id: string | number }) => String(item.id));
    expect(ids).toEqual(expect.arrayContaining([newsIds.microbiome, newsIds.ibd]));
  });

  it('news semantic search: 炎症性肠病 finds the item about it first, not economics or arts', async () => {
    const response = await call('POST', '/api/news/search/', { query: '炎症性肠病', search_type: 'semantic' });
    expect(response.statusCode, response.body).toBe(200);
    const ids = response.json().data.map((item: { id: string | number }) => String(item.id));
    expect(ids[0]).toBe(newsIds.ibd);
    for (const unrelated of ['economy', 'arts']) {
      const position = ids.indexOf(newsIds[unrelated]);
      if (position !== -1) expect(position, unrelated).toBeGreaterThan(ids.indexOf(newsIds.ibd));
    }
  });

  it('news recommendations: the Chinese item sharing her terms ranks above the off-topic one, and says what matched', async () => {
    const response = await call('GET', '/api/news/recommendations/?similarity_threshold=0');
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data as { id: string | number; reason: { terms: string[] } | null }[];
    const order = data.map((item) => String(item.id));
    const rank = (key: string) => {
      const position = order.indexOf(newsIds[key] as string);
      return position === -1 ? Number.POSITIVE_INFINITY : position;
    };
    expect(rank('ibd')).toBeLessThan(Number.POSITIVE_INFINITY);
    for (const unrelated of ['perovskite', 'economy', 'arts']) {
      expect(rank('ibd'), `${unrelated}: ${order.join(',')}`).toBeLessThan(rank(unrelated));
    }
    const ibd = data.find((item) => String(item.id) === newsIds.ibd);
    expect(ibd?.reason?.terms).toEqual(expect.arrayContaining(['炎症性肠病（inflammatory bowel disease）']));
  });

  it('the digest (Atom feed, digest mail, robot push) says what a Chinese item shares, as its card does', async () => {
    const settings = await call('PUT', API_PATHS.deliverySettings, {
      frequency: 'daily',
      weekday: 1,
      hour: 8,
      time_zone: 'Asia/Shanghai',
      email_enabled: false,
      paper_filters: { threshold: 0, excluded_jcr: [], date_filter: ['不限'] },
      news_filters: { threshold: 0, date_filter: ['不限'] },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const token = await call('POST', API_PATHS.deliveryFeedToken);
    expect(token.statusCode, token.body).toBe(200);
    const feed = await runtime.app.inject({
      method: 'GET',
      url: new URL(deliveryFeedTokenResponseSchema.parse(token.json()).feed_url).pathname,
    });
    expect(feed.statusCode, feed.body.slice(0, 300)).toBe(200);
    // The item's entry: its title, then (escaped into the entry's content) the reason built for every channel.
    const entry = feed.body.split('<entry>').find((part) => part.includes(NEWS.ibd[0]));
    expect(entry, feed.body.slice(0, 2000)).toBeDefined();
    expect(entry).toContain('炎症性肠病（inflammatory bowel disease）');
  });

  it('a followed Chinese keyword matches English papers: the recommendation names it', async () => {
    const added = await call('POST', '/user-keywords/add/', { keyword: '肠道菌群' });
    expect(added.statusCode, added.body).toBe(201);
    const response = await call(
      'GET',
      `/api/auth/recommendations/papers/?top_k=20&similarity_threshold=0&excluded_jcr=&date_filter=${encodeURIComponent('不限')}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const gut = (
      response.json().recommendations as { id: string | number; reason: { kind: string; terms: string[] } }[]
    ).find((paper) => String(paper.id) === paperIds[0]);
    expect(gut?.reason.kind).toBe('keyword');
    expect(gut?.reason.terms).toContain('肠道菌群');
    // Its English is followed too: the summary's "gut microbiota" is no longer suggested.
    const suggestions = await call('GET', '/user-rkeywords/');
    expect(suggestions.statusCode, suggestions.body).toBe(200);
    const names = (suggestions.json().keywords as { name: string }[]).map((keyword) => keyword.name.toLowerCase());
    expect(names.length).toBeGreaterThan(0);
    expect(names).not.toContain('gut microbiota');
  });

  it('a negative term typed in Chinese keeps out what says it in English', async () => {
    const added = await call('POST', '/user-keywords/add/', { keyword: '炎症性肠病' });
    expect(added.statusCode, added.body).toBe(201);
    const id = added.json().keyword.id as string;
    const reasonOf = async (paperIndex: number) => {
      const response = await call(
        'GET',
        `/api/auth/recommendations/papers/?top_k=20&similarity_threshold=0&excluded_jcr=&date_filter=${encodeURIComponent('不限')}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      return (
        response.json().recommendations as { id: string | number; reason: { kind: string; terms: string[] } }[]
      ).find((paper) => String(paper.id) === paperIds[paperIndex])?.reason;
    };
    // "Single-cell sequencing of the inflamed colon" (inflammatory bowel disease) matches the keyword ...
    expect((await reasonOf(3))?.terms).toContain('炎症性肠病');
    const updated = await call('PATCH', `/user-keywords/${id}/update/`, { negative_terms: ['单细胞测序'] });
    expect(updated.statusCode, updated.body).toBe(200);
    // ... until its Chinese negative term, whose English the paper says, keeps it out; the others still match.
    expect((await reasonOf(3))?.terms ?? []).not.toContain('炎症性肠病');
    expect((await reasonOf(1))?.terms).toContain('炎症性肠病');
    const removed = await call('POST', `/user-keywords/${id}/remove/`);
    expect(removed.statusCode, removed.body).toBe(200);
  });

  it('a Chinese keyword followed before keywords were glossed gets its English once', async () => {
    const keywords = new KeywordRepository(runtime.database.db);
    const user = await new UserRepository(runtime.database.db).create({ email: 'old-keyword@example.org' });
    const result = await keywords.create(user.id, '炎症性肠病', 50);
    if (!('created' in result)) throw new Error('keyword not created');
    expect(result.created.englishAlternatives).toBeNull();
    const service = new KeywordService({
      keywords,
      linkTokens: new MailLinkTokens('a secret of at least thirty-two characters'),
      logger: pino({ level: 'silent' }),
    });
    expect(await service.glossFollowedKeywords()).toBeGreaterThanOrEqual(1);
    const [row] = await keywords.listByUser(user.id);
    expect(row?.englishAlternatives?.[0]).toContain('inflammatory bowel disease');
    expect(await service.glossFollowedKeywords()).toBe(0);
  });

  it('a research interest typed in Chinese is glossed like the profile: its nearest papers are the gut ones', async () => {
    const created = await call('POST', '/api/auth/interests/', { name: '肠道菌群', description: '肠道菌群与免疫' });
    expect(created.statusCode, created.body).toBe(201);
    const interest = (created.json().interests as { kind: string; has_vector: boolean }[]).at(-1);
    expect(interest?.has_vector).toBe(true);
    const response = await call(
      'GET',
      `/api/auth/recommendations/papers/?top_k=20&similarity_threshold=0&excluded_jcr=&date_filter=${encodeURIComponent('不限')}`,
    );
    const drawn = (response.json().recommendations as { id: string | number; interest?: { name: string } }[]).filter(
      (paper) => paper.interest?.name === '肠道菌群',
    );
    expect(drawn.length).toBeGreaterThan(0);
    expect(paperIds).toContain(String(drawn[0]?.id));
  });
});
