import { describe, expect, it } from 'vitest';
import { draftEnglishDirection, glossChinese } from '../src/offline/chinese-gloss';

const HISTORIAN = `李明远 个人简介
李明远，历史学博士，教授，博士生导师。2008年毕业于南开大学历史学院，现任某大学历史学院明清史研究中心主任。
研究方向：明清史、社会经济史、江南地方社会与赋役制度。近年来主要从事明代财政史与徽州契约文书的整理和研究，关注清代商人、宗族与地方社会的互动。
主持国家社会科学基金重大项目一项，出版专著《明代江南赋役制度研究》。
欢迎对明清史感兴趣的同学报考硕士、博士研究生。联系电话：022-12345678；邮箱：lmy@example.edu.cn`;

const BIOLOGIST = `王静 课题组
王静，研究员，博士生导师，国家杰出青年科学基金获得者。
课题组主要研究肠道干细胞在组织再生中的调控机制，以及炎症性肠病（溃疡性结肠炎和克罗恩病）的发病机理。
我们利用类器官、单细胞测序和小鼠模型，研究肠上皮损伤后的上皮修复、肠道菌群与黏膜免疫的相互作用，探索炎症性肠病的新型治疗策略。
课题组长期招收博士后和研究生，欢迎具有细胞生物学、免疫学背景的同学加入。电话：021-87654321  邮箱：wangjing@example.ac.cn`;

const COMPUTER_SCIENTIST = `张伟 教授 个人主页
张伟，计算机科学与技术学院教授。主要研究方向为图神经网络、药物发现与分子性质预测，也关注 large language models 与知识图谱的结合。
在 NeurIPS、ICML、KDD 等会议发表论文五十余篇。
实验室常年招收对深度学习、机器学习感兴趣的硕士生和博士生，欢迎发送简历至 zhangwei@example.edu.cn。办公电话：010-62781234`;

const MATERIALS_SCIENTIST = `陈晓 研究员
主要从事钙钛矿太阳能电池与光电器件研究，聚焦钙钛矿薄膜的缺陷钝化、晶体生长与器件稳定性，致力于提升能量转换效率。
同时开展二维材料与柔性电子方面的工作。课题组欢迎材料科学、化学、物理学背景的优秀学生加入。邮箱：chenxiao@example.cn`;

const EDUCATION_RESEARCHER = `刘芳 副教授
教育学部副教授，硕士生导师。研究兴趣包括教师教育、教育公平与农村教育、课堂教学与学生发展，近年关注教育技术与在线学习对基础教育的影响。
主持全国教育科学规划课题两项。欢迎有志于教育政策研究的同学联系。电话：010-58801234`;

/** What no English draft of a homepage should contain: contact details, recruiting and CV boilerplate. */
const BOILERPLATE =
  /welcome|recruit|telephone|phone|e-?mail|research group|profile|professor|doctor|graduate|postdoc|contact|office/i;

function draftOf(text: string): { summary: string; terms: string[] } {
  const draft = draftEnglishDirection(text);
  expect(draft).not.toBeNull();
  return draft as { summary: string; terms: string[] };
}

describe('glossChinese', () => {
  it('glosses the query 图神经网络 to "graph neural network" although jieba splits it', () => {
    expect(glossChinese('图神经网络').terms).toEqual([
      { zh: '图神经网络', en: 'graph neural network', source: 'curated' },
    ]);
  });

  it('joins segments back by longest match and glosses other words from CC-CEDICT without surnames or variants', () => {
    const terms = glossChinese('炎症性肠病与钙钛矿；太阳能').terms;
    expect(terms.map((term) => term.en)).toEqual(['inflammatory bowel disease', 'perovskite', 'solar energy']);
    expect(terms[2]?.source).toBe('cedict');
    // 王 is a single character (and its first CEDICT row a surname): never glossed.
    expect(glossChinese('王教授').terms).toEqual([]);
  });

  it('glosses field names from the research-field list', () => {
    expect(glossChinese('社会学').terms).toEqual([{ zh: '社会学', en: 'sociology', source: 'curated' }]);
    expect(glossChinese('多学科交叉').terms[0]).toMatchObject({ en: 'multidisciplinary', source: 'field' });
  });

  it('drops homepage boilerplate and function words', () => {
    expect(glossChinese('欢迎报考！课题组招收博士后。个人简介。电话、邮箱：见下').terms).toEqual([]);
  });
});

describe('draftEnglishDirection', () => {
  it('returns null when the text names no research term', () => {
    expect(draftEnglishDirection('欢迎访问我的个人主页，联系电话 010-12345678。')).toBeNull();
    expect(draftEnglishDirection('')).toBeNull();
  });

  it('drafts a Ming-Qing historian', () => {
    const { summary, terms } = draftOf(HISTORIAN);
    expect(summary.startsWith('Research interests: ')).toBe(true);
    expect(terms.slice(0, 4)).toEqual(expect.arrayContaining(['Ming-Qing history', 'socio-economic history']));
    expect(terms).toEqual(expect.arrayContaining(['fiscal history', 'contract documents']));
    expect(summary).not.toMatch(BOILERPLATE);
  });

  it('drafts a gut stem-cell / IBD biologist', () => {
    const { summary, terms } = draftOf(BIOLOGIST);
    expect(terms).toEqual(
      expect.arrayContaining([
        'intestinal stem cell',
        'inflammatory bowel disease',
        'organoid',
        'single-cell sequencing',
      ]),
    );
    expect(terms.indexOf('inflammatory bowel disease')).toBeLessThan(3);
    expect(summary).not.toMatch(BOILERPLATE);
  });

  it('drafts a GNN computer scientist, keeping the English phrases of a mixed text', () => {
    const { summary, terms } = draftOf(COMPUTER_SCIENTIST);
    expect(terms.slice(0, 3)).toEqual(['graph neural network', 'drug discovery', 'molecular property prediction']);
    expect(terms).toEqual(expect.arrayContaining(['large language model', 'knowledge graph']));
    // The recruiting line ("招收对深度学习、机器学习感兴趣的硕士生") says whom the lab takes, not what it studies.
    expect(terms).not.toContain('deep learning');
    expect(summary).not.toMatch(BOILERPLATE);
  });

  it('drafts a perovskite materials scientist', () => {
    const { summary, terms } = draftOf(MATERIALS_SCIENTIST);
    expect(terms[0]).toMatch(/perovskite/);
    // 钙钛矿薄膜 is one term of the field glossary, more specific than "thin film".
    expect(terms).toEqual(expect.arrayContaining(['perovskite solar cell', 'defect passivation', 'perovskite film']));
    expect(summary).not.toMatch(BOILERPLATE);
  });

  it("keeps the author's own English terms of a mixed text, but not venues, names of models or acronyms", () => {
    const { terms } = draftOf(
      '该研究提出了一种混合专家模型（Mixture-of-Experts, MoE），在 DeepSeek 与 Llama-4 上评估了粒度 (Granularity) 的影响，并关注 random walk attacks 的鲁棒性。',
    );
    expect(terms).toEqual(expect.arrayContaining(['mixture-of-experts', 'granularity', 'random walk attacks']));
    expect(terms.join(' ')).not.toMatch(/deepseek|llama|\bmoe\b/i);
    const venues = draftOf(
      '在 Nature Energy、Advanced Materials 等期刊发表论文 80 余篇。研究方向：图神经网络（graph neural networks）。',
    );
    // The author's plural and our term are one term, spelt as ours.
    expect(venues.terms).toEqual(['graph neural network']);
  });

  it('glosses each item of a stated enumeration into one phrase when every word has a noun sense', () => {
    const { terms } = draftOf('研究方向：柔性传感、稳定同位素与文本水印。');
    // 柔性 and 稳定 before another word mean "flexible" and "stable" (CC-CEDICT's first senses are
    // "flexibility" and "steady"); a dictionary sense's article ("a text watermark") is dropped.
    expect(terms).toEqual(['flexible sensing', 'stable isotope', 'text watermark']);
    // A verb (失效 -> "to fail") ends a phrase only as the noun of its action; an item of only general
    // words (结构调控) is not strung together.
    const guarded = draftEnglishDirection('研究方向：材料失效分析、结构调控与钙钛矿太阳能电池。');
    expect(guarded?.terms.join(' | ')).not.toMatch(/\bfail\b|structure regulation/);
    expect(guarded?.terms).toContain('perovskite solar cell');
  });

  it('glosses 非 before a word as "non-" and its adjective sense, never as the word alone', () => {
    const { terms } = draftOf('研究方向：非相对论量子力学与非平衡统计物理。');
    expect(terms).toEqual(['non-relativistic quantum mechanics', 'non-equilibrium statistical physics']);
    expect(terms.join(' | ')).not.toMatch(/theory of relativity|^equilibrium/);
  });

  it('keeps names with accented letters whole in the English written inside Chinese text', () => {
    const { terms } = draftOf('主要研究 Fröhlich 极化子与 Schrödinger 方程的数值解法。');
    expect(terms).toEqual(expect.arrayContaining(['fröhlich', 'schrödinger', 'polaron']));
    expect(terms).not.toContain('hlich');
  });

  it('keeps every method, organism and object of a biologist, acronyms with their Chinese, and no verbs', () => {
    const { terms } = draftOf(
      '课题组利用小鼠遗传模型、单细胞测序和CRISPR基因编辑，研究Wnt信号通路如何调控肠道干细胞的增殖、分化与凋亡，以及蛋白质相互作用网络。',
    );
    // In the author's order.
    expect(terms.slice(0, 4)).toEqual([
      'mouse genetic model',
      'single-cell sequencing',
      'CRISPR gene editing',
      'Wnt signaling pathway',
    ]);
    expect(terms).toEqual(expect.arrayContaining(['intestinal stem cell', 'differentiation', 'apoptosis']));
    // 调控 starts a phrase as a verb; 相互作用 (first sense "interact") is a verb alone.
    expect(terms.join(' | ')).not.toMatch(/\binteract\b|\bregulat/);
  });

  it("composes a historian's dictionary words into phrases beyond the curated table", () => {
    const { terms } = draftOf('研究方向：朝贡体系与清代对外贸易；广州十三行与海关档案。');
    expect(terms).toEqual(expect.arrayContaining(['tributary system', 'Qing foreign trade']));
    expect(terms.some((term) => term.startsWith('customs archive'))).toBe(true);
    expect(terms.some((term) => term.includes('Thirteen Hongs'))).toBe(true);
  });

  it('drafts more than one term from a sentence with one curated term, and no sentence fragment', () => {
    const { terms } = draftOf(
      '主要研究有限元方法与间断Galerkin方法的误差估计、自适应网格加密及其在计算流体力学中的应用。',
    );
    expect(terms.length).toBeGreaterThanOrEqual(3);
    expect(terms).toEqual(expect.arrayContaining(['error estimate']));
    expect(terms.some((term) => term.startsWith('finite element'))).toBe(true);
    expect(terms.some((term) => term.includes('fluid'))).toBe(true);
    // A phrase is at most six English words.
    for (const term of terms) expect(term.split(' ').length).toBeLessThanOrEqual(6);
  });

  it('reads a word no dictionary glosses as the words it is made of, and research senses as nouns in phrases', () => {
    const { terms } = draftOf(
      '主要研究方向为供应链管理，包括库存管理、需求预测、定价与补贴策略。方法上采用问卷调查、博弈论、随机优化与实证分析。',
    );
    // 问卷调查 is one word to jieba and none to CC-CEDICT: 问卷 + 调查.
    expect(terms).toEqual(
      expect.arrayContaining([
        'supply chain management',
        'inventory management',
        'subsidy strategy',
        'questionnaire survey',
        'game theory',
        'stochastic optimization',
        'empirical analysis',
      ]),
    );
    // 采用 ("adopt") starts no phrase and is no term.
    expect(terms.join(' | ')).not.toMatch(/adopt/);
  });

  it('drafts an education researcher', () => {
    const { summary, terms } = draftOf(EDUCATION_RESEARCHER);
    expect(terms).toEqual(
      expect.arrayContaining(['teacher education', 'educational equity', 'rural education', 'educational technology']),
    );
    expect(summary).not.toMatch(BOILERPLATE);
  });
});
