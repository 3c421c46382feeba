import { syntheticPapers } from '@radar/ai/testing';
import { NewsRepository, PaperRepository, UserRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * Chinese news for an English profile through the API, offline (built-in model, no LLM): the model is
 * fitted on a mostly English corpus, every item is embedded by the product's own re-embedding (Chinese
 * items from their English glosses), and GET /api/news/recommendations/ ranks the Chinese items about
 * the reader's topic above the Chinese items about other topics.
 */

const MOLECULAR_PAPERS = [
  [
    'Graph neural networks for molecular property prediction',
    'We learn representations of molecules as graphs of atoms and chemical bonds with a message passing neural network and predict solubility and toxicity.',
  ],
  [
    'Deep learning accelerates drug discovery',
    'A graph neural network screens candidate drug molecules and predicts binding affinity, reducing the cost of drug discovery.',
  ],
  [
    'Equivariant message passing for molecules',
    'An equivariant graph neural network learns atomic interactions and predicts molecular energies and forces.',
  ],
  [
    'Self-supervised pretraining on molecular graphs',
    'Pretraining a graph neural network on millions of unlabeled molecules improves molecular property prediction.',
  ],
  [
    'Chemical reaction prediction with graph learning',
    'Graph learning over molecules and chemical bonds predicts the products of organic chemical reactions.',
  ],
  [
    'Molecule generation with diffusion models',
    'A diffusion model generates drug-like molecules whose properties are predicted by a graph neural network.',
  ],
];

const CHINESE_NEWS = {
  gnn: [
    '我校团队提出新型图神经网络用于分子性质预测',
    '该模型在分子图上学习原子与化学键的表示，显著提升了药物发现中分子性质预测的准确率。',
  ],
  drug: [
    '化学学院与计算机学院合作加速新药研发',
    '团队利用深度学习和图神经网络对候选药物分子进行筛选，预测分子的结合亲和力。',
  ],
  climate: [
    '研究揭示气候变暖对海洋的影响',
    '研究发现气候变暖导致海洋温度升高和降水模式改变，冰川加速融化，海平面上升。',
  ],
  economy: ['经济学院发布通货膨胀研究报告', '报告分析了通货膨胀与货币政策对劳动力市场、工资和家庭消费的影响。'],
  biology: [
    '生命科学学院发现基因表达调控新机制',
    '研究人员通过基因组测序发现蛋白质与RNA转录调控细胞中基因表达的新通路。',
  ],
} as const;

describe('Chinese news for an English profile, offline', () => {
  let runtime: TestRuntime;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    runtime = await startTestRuntime({ env: { RUN_WORKER: 'false' } });
    const db = runtime.database.db;
    await new PaperRepository(db).insertMany([
      ...syntheticPapers(120, 5).map((paper, index) => ({
        title: paper.title,
        abstract: paper.abstract,
        source: 'test',
        url: `https://papers.example.org/s${index}`,
      })),
      ...MOLECULAR_PAPERS.map(([title, abstract], index) => ({
        title: title as string,
        abstract: abstract as string,
        source: 'test',
        url: `https://papers.example.org/m${index}`,
      })),
    ]);
    const news = new NewsRepository(db);
    const inserted = await news.insertMany(
      Object.entries(CHINESE_NEWS).map(([key, [title, content]]) => ({
        title,
        content,
        url: `https://news.example.edu.cn/${key}`,
        urlNormalized: `news.example.edu.cn/${key}`,
        source: 'test',
        publishDate: new Date(Date.now() - 86_400_000),
      })),
    );
    Object.keys(CHINESE_NEWS).forEach((key, index) => {
      ids[key] = String(inserted[index]?.id);
    });
    await news.analyze();
    const { embeddings } = runtime.parts.ai;
    expect((await embeddings.refitIfDue({ force: true })).refitted).toBe(true);
    await embeddings.reembedStale();
    // A fit and a start-up on a loaded 2-core machine: minutes at worst, seconds usually.
  }, 300_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('ranks the Chinese items about graph neural networks for molecules above the unrelated ones', async () => {
    const user = await new UserRepository(runtime.database.db).create({
      email: 'gnn@example.org',
      isEmailVerified: true,
      researchSummaryEn: 'Graph neural networks for molecules.',
    });
    const headers = { authorization: `Bearer ${await runtime.app.signIn(user)}` };
    const response = await runtime.app.inject({
      method: 'GET',
      url: '/api/news/recommendations/?similarity_threshold=0',
      headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const order: string[] = response.json().data.map((item: { id: string | number }) => String(item.id));
    const rank = (key: string) => {
      const position = order.indexOf(ids[key] as string);
      return position === -1 ? Number.POSITIVE_INFINITY : position;
    };
    expect(rank('gnn')).toBeLessThan(Number.POSITIVE_INFINITY);
    expect(rank('drug')).toBeLessThan(Number.POSITIVE_INFINITY);
    for (const relevant of ['gnn', 'drug']) {
      for (const unrelated of ['climate', 'economy', 'biology']) {
        expect(rank(relevant), `${relevant} above ${unrelated}: ${order.join(',')}`).toBeLessThan(rank(unrelated));
      }
    }
  });
});
