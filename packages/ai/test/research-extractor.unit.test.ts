import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  buildEnglishSummary,
  classifyResearchFields,
  deobfuscateEmails,
  extractResearchProfileOffline,
  findEmail,
  findInstitution,
  findName,
  findPosition,
  NOTICES,
} from '../src/offline/research-extractor';
import { englishWordCount, OfflineResearchProfileExtractor } from '../src/research-profile';

/** The offline rules on realistic homepages (written for these tests, in test/fixtures/homepages). */

const homepage = (name: string) => fs.readFileSync(new URL(`./fixtures/homepages/${name}`, import.meta.url), 'utf8');

describe('offline extractor on whole homepages', () => {
  it('an English computer-science faculty page', () => {
    const profile = extractResearchProfileOffline(homepage('en-cs-associate-professor.txt'));
    expect(profile).toMatchObject({
      name: 'Jane M. Okafor',
      email: 'jokafor@cs.stanford.edu',
      institution: 'Stanford University',
      position: 'Associate Professor',
      researchFields: ['computer-science'],
      notices: [],
    });
    const summary = profile.researchSummaryEn;
    expect(summary.startsWith('My research focuses on the foundations of trustworthy machine learning.')).toBe(true);
    // Research only: no menu, biography, awards, citations, teaching or contact lines.
    for (const left of ['Home |', 'received her Ph.D.', 'CAREER Award', 'Proceedings', 'CS 229', 'Phone', '©']) {
      expect(summary).not.toContain(left);
    }
    expect(englishWordCount(summary)).toBeGreaterThanOrEqual(80);
    expect(englishWordCount(summary)).toBeLessThanOrEqual(250);
  });

  it('an English ecology lab page with a "[at] ... [dot]" address and a former employer', () => {
    const profile = extractResearchProfileOffline(homepage('en-ecology-senior-lecturer.txt'));
    expect(profile).toMatchObject({
      name: 'Emily Clarke',
      email: 'e.clarke@ed.ac.uk',
      institution: 'University of Edinburgh',
      position: 'Senior Lecturer',
    });
    expect(profile.researchFields).toContain('environmental-ecology');
    expect(profile.researchSummaryEn).toContain('freshwater ecosystems respond to climate change');
    expect(profile.researchSummaryEn).not.toContain('University of Leeds');
    expect(profile.researchSummaryEn).not.toContain('Global Change Biology 30');
  });

  it('a Chinese-only page: fields and contact details, and an English draft glossed from its research terms', () => {
    const profile = extractResearchProfileOffline(homepage('zh-cs-professor.txt'));
    expect(profile).toMatchObject({
      name: '张伟',
      email: 'zhangwei@tsinghua.edu.cn',
      institution: '清华大学计算机科学与技术系',
      position: '教授、博士生导师',
      researchFields: ['computer-science'],
      researchSummaryOrigin: 'offline-gloss',
    });
    // "大语言模型的高效训练与推理系统": the enumerated item 高效训练 is glossed word by word into one phrase;
    // two of our terms side by side (深度学习编译器) stay two terms.
    expect(profile.researchSummaryEn).toBe(
      'Research interests: distributed system, cloud computing, data processing, machine learning system, performance optimization, resource scheduling, deep learning compiler, large language model, efficient training, inference system.',
    );
    expect(profile.notices).toEqual([NOTICES.glossDraft]);
  });

  it('a bilingual page: Chinese contact details, English research paragraph as the summary', () => {
    const profile = extractResearchProfileOffline(homepage('zh-materials-bilingual.txt'));
    expect(profile).toMatchObject({
      name: '李娜',
      email: 'lina@iphy.ac.cn',
      institution: '中国科学院物理研究所',
      position: '研究员、博士生导师',
    });
    expect(profile.researchFields).toContain('materials-science');
    expect(profile.researchSummaryEn).toMatch(/^Our group works on solid-state battery materials/);
    expect(profile.researchSummaryEn).not.toMatch(/[\u4e00-\u9fa5]/);
    expect(profile.notices).toEqual([]);
  });
});

describe('email', () => {
  it.each([
    ['Email: jane.doe (at) mit.edu', 'jane.doe@mit.edu'],
    ['e-mail: jane [at] cs [dot] cmu [dot] edu', 'jane@cs.cmu.edu'],
    ['Contact: jane at stanford dot edu for details', 'jane@stanford.edu'],
    ['邮箱：wangfang#pku.edu.cn（将#替换为@）', 'wangfang@pku.edu.cn'],
    ['电子邮件：liu＠fudan.edu.cn', 'liu@fudan.edu.cn'],
    ['Write to office@dept.org, or to me. Email: Me@Example.ORG.', 'me@example.org'],
  ])('%s', (text, email) => {
    expect(findEmail(text)).toBe(email);
  });

  it('leaves ordinary text alone', () => {
    expect(deobfuscateEmails('We look at networks that grow over time.')).toBe(
      'We look at networks that grow over time.',
    );
    expect(findEmail('No address here, only a phone: 010-6278 1234.')).toBe('');
  });
});

describe('name, position and institution', () => {
  it.each([
    ['王小明 副教授\n浙江大学控制科学与工程学院', '王小明', '副教授', '浙江大学控制科学与工程学院'],
    ['欧阳明，中国科学院院士，南京大学物理学院教授。', '欧阳明', '中国科学院院士', '南京大学物理学院'],
    ['姓名：陈静\n职称：讲师\n单位：复旦大学管理学院', '陈静', '讲师', '复旦大学管理学院'],
    [
      'Dr. Wei Chen is a Research Scientist at the Max Planck Institute for Informatics.',
      'Wei Chen',
      'Research Scientist',
      'Max Planck Institute for Informatics',
    ],
    [
      'Professor of EECS, University of California, Berkeley. Prof. Ana Ruiz',
      'Ana Ruiz',
      'Professor',
      'University of California, Berkeley',
    ],
    [
      'Maria Rossi, PhD\nAssistant Professor, Department of Economics, Bocconi University',
      'Maria Rossi',
      'Assistant Professor',
      'Bocconi University',
    ],
  ])('%s', (text, name, position, institution) => {
    expect(findName(text)).toBe(name);
    expect(findPosition(text)).toBe(position);
    expect(findInstitution(text)).toBe(institution);
  });

  it('takes a Chinese institution only from a clear pattern, never from a sentence that mentions one', () => {
    // A partner in a sentence, a lab a student may join, a lab the author set up: no affiliation.
    expect(findInstitution('课题组从事实验粒子物理研究，相关结果与费米实验室合作发表于国际期刊。')).toBe('');
    expect(findInstitution('欢迎对植物生物学感兴趣的本科生进入实验室开展科研训练。')).toBe('');
    expect(findInstitution('2014年回国独立建立实验室，研究细胞自噬。')).toBe('');
    // A degree in a CV line is no employer.
    expect(findInstitution('教育背景：\n2009—2013年 北京大学历史学系 学士')).toBe('');
    // A label, the bio line, a verb of employment, a title after the name.
    expect(findInstitution('工作单位：某某大学物理学院')).toBe('某某大学物理学院');
    expect(findInstitution('张某某，某某大学物理学院教授，博士生导师。')).toBe('某某大学物理学院');
    expect(findInstitution('2016年起就职于某某研究所。')).toBe('某某研究所');
    expect(findInstitution('陈某，博士，生命科学学院研究员。')).toBe('生命科学学院');
  });

  it('prefers the current employer over the university of a degree', () => {
    expect(findInstitution('2005年博士毕业于北京大学，现任上海交通大学电子信息与电气工程学院教授。')).toBe(
      '上海交通大学电子信息与电气工程学院',
    );
    expect(
      findInstitution('She received her PhD from Harvard University. She is now a Lecturer at Durham University.'),
    ).toBe('Durham University');
  });

  it('returns empty strings when nothing is stated', () => {
    expect(findName('We study graphs.')).toBe('');
    expect(findPosition('We study graphs.')).toBe('');
    expect(findInstitution('We study graphs.')).toBe('');
  });
});

describe('research fields', () => {
  it.each([
    ['Our lab develops deep learning and computer vision algorithms.', ['computer-science']],
    ['研究方向：肿瘤免疫治疗与临床诊断，关注癌症患者的预后。', ['medicine']],
    ['We study monetary policy, labor market dynamics and econometrics.', ['economics']],
    ['主要研究水稻育种、作物栽培与农业生态。', ['agricultural-forestry']],
    ['Topology, algebraic geometry and number theory.', ['mathematics']],
  ])('%s', (text, fields) => {
    expect(classifyResearchFields(text)).toEqual(fields);
  });

  it('finds nothing in text without research content', () => {
    expect(classifyResearchFields('Welcome to my homepage. Office hours on Tuesday.')).toEqual([]);
  });
});

describe('offline extractor as a provider', () => {
  it('returns the shared result shape, saying when the summary is a glossed draft', async () => {
    const result = await new OfflineResearchProfileExtractor().extract('我们课题组研究量子计算。邮箱：a(at)b.cn');
    expect(result).toEqual({
      name: '',
      email: 'a@b.cn',
      institution: '',
      position: '',
      research_fields: ['physics-astronomy'],
      research_summary_en: 'Research interests: quantum computing.',
      research_direction_origin: 'offline-gloss',
      source: 'offline',
      model: 'offline-rules',
      notices: [NOTICES.glossDraft],
    });
  });

  it('says why there is no summary when a Chinese text names no research term', async () => {
    const result = await new OfflineResearchProfileExtractor().extract('欢迎访问我的个人主页。邮箱：a(at)b.cn');
    expect(result.research_summary_en).toBe('');
    expect(result.research_direction_origin).toBeUndefined();
    expect(result.notices).toContain(NOTICES.noEnglish);
  });

  it('says when the English research text is short', async () => {
    const result = await new OfflineResearchProfileExtractor().extract(
      'My research focuses on graph algorithms for large social networks and their applications.',
    );
    expect(result.research_summary_en).toContain('graph algorithms');
    expect(result.notices).toEqual([NOTICES.shortEnglish(13)]);
  });
});

describe('offline extractor: a Chinese page drafted into every research term it states', () => {
  it('a biologist: methods, organisms and acronym terms kept in her order, no verbs, no fragment as institution', () => {
    const text = `李某某，研究员，博士生导师。
研究方向：Wnt信号通路与肠道干细胞的分化；单细胞测序；CRISPR基因编辑与小鼠遗传模型。
课题组利用类器官培养和谱系示踪技术，研究上皮损伤后的组织再生，相关结果与国外实验室合作发表。`;
    const profile = extractResearchProfileOffline(text);
    expect(profile.researchSummaryOrigin).toBe('offline-gloss');
    expect(profile.institution).toBe('');
    const terms = profile.researchSummaryEn
      .replace(/^Research interests: /, '')
      .replace(/\.$/, '')
      .split(', ');
    expect(terms.slice(0, 6)).toEqual([
      'Wnt signaling pathway',
      'intestinal stem cell',
      'differentiation',
      'single-cell sequencing',
      'CRISPR gene editing',
      'mouse genetic model',
    ]);
    expect(terms).toEqual(expect.arrayContaining(['lineage tracing', 'tissue regeneration']));
    expect(profile.researchSummaryEn).not.toMatch(/\b(?:interact|develop|use|study)\b/);
  });
});

describe('offline extractor: shapes from real homepages (issue 18)', () => {
  it('a Chinese Ming-Qing historian: history on evidence, never earth sciences or economics, no summary', () => {
    const profile = extractResearchProfileOffline(homepage('zh-history-ming-qing.txt'));
    expect(profile).toMatchObject({
      name: '陈思远',
      email: 'chensiyuan@fudan.edu.cn',
      institution: '复旦大学历史学系',
      position: '教授、博士生导师',
      researchFields: ['history'],
      researchSummaryOrigin: 'offline-gloss',
    });
    // The stated directions first, in the author's order; the degree, the courses and recruiting line left out.
    // The cited books and articles (《…》，2015年) are left out with their publishers and journals.
    expect(profile.researchSummaryEn).toBe(
      'Research interests: Ming-Qing China, socio-economic history, maritime history, Ming-Qing period southeast, maritime trade, maritime prohibition policy, local society, Jiangnan market towns, coastal frontier governance, local gazetteers, popular documents.',
    );
    expect(profile.notices).toEqual([NOTICES.glossDraft]);
  });

  it('a gut stem-cell / IBD biologist: the research section in order; the CV, cited titles and recruiting left out', () => {
    const profile = extractResearchProfileOffline(homepage('zh-biology-gut-stem-cell.txt'));
    expect(profile).toMatchObject({
      name: '周雅琴',
      email: 'zhouyaqin@sibcb.ac.cn',
      researchSummaryOrigin: 'offline-gloss',
    });
    expect(profile.researchFields).toEqual(expect.arrayContaining(['biology', 'medicine']));
    const { researchSummaryEn: summary } = profile;
    expect(summary).toMatch(
      /^Research interests: intestinal stem cell, tissue homeostasis, molecular mechanism, inflammatory bowel disease, colorectal cancer,/,
    );
    // What the research section names, acronyms with their Chinese (Wnt信号通路), methods; the 20 terms
    // are full, so the least salient of the prose (基因编辑小鼠模型) are left out.
    for (const kept of [
      'Wnt signaling pathway',
      'Notch signaling pathway',
      'epithelium regeneration',
      'organoid',
      'single-cell sequencing',
      'lineage tracing',
    ]) {
      expect(summary).toContain(kept);
    }
    // From the institution's name (分子细胞科学卓越创新中心), the PhD, and the fields wanted of applicants.
    for (const left of ['molecule', 'outstanding', 'doctoral', 'cell biology', 'immunology', 'bioinformatics']) {
      expect(summary).not.toContain(left);
    }
  });

  it('a materials chemist: MOF and electrocatalysis terms, no bare "chemistry" or "material", no cited "evolution"', () => {
    const profile = extractResearchProfileOffline(homepage('zh-chemistry-mof-catalysis.txt'));
    expect(profile).toMatchObject({
      name: '孙浩然',
      email: 'sunhr@nju.edu.cn',
      researchSummaryOrigin: 'offline-gloss',
    });
    expect(profile.researchFields).toContain('chemistry');
    expect(profile.researchSummaryEn).toBe(
      'Research interests: porous materials, energy catalysis, metal-organic framework, covalent organic framework, electrocatalysis, CO2 reduction, hydrogen evolution reaction, non-precious metal catalyst, single-atom catalyst, catalysis mechanism, in situ characterization, density functional theory calculation, gas adsorption.',
    );
  });

  it("an education researcher: her fields of study, not the projects' funders or the school's address", () => {
    const profile = extractResearchProfileOffline(homepage('zh-education-teacher.txt'));
    expect(profile).toMatchObject({
      name: '郑晓燕',
      researchFields: ['education'],
      researchSummaryOrigin: 'offline-gloss',
    });
    const { researchSummaryEn: summary } = profile;
    expect(summary).toMatch(
      /^Research interests: teacher professional development, curriculum and instruction, educational assessment,/,
    );
    expect(summary).toContain('educational equity');
    for (const left of ['mailing address', 'Ministry', 'social sciences', "master's", 'course']) {
      expect(summary).not.toContain(left);
    }
  });

  it('a short maritime-history page: "海洋" in 海洋史/海洋贸易 is no evidence for earth sciences', () => {
    const text =
      '王海涛 副教授\n南开大学历史学院\n研究方向：明清海洋史、海洋贸易与海疆治理、海洋社会与沿海民众生活。\n主讲课程：中国海洋史专题。';
    expect(classifyResearchFields(text)).toEqual(['history']);
  });

  it('sets no field from weak, shared words or from the headings every page has', () => {
    // "网络", "数据", "教学", "课程", "教育背景" are on any page; none of them names a field.
    expect(
      classifyResearchFields('教育背景\n主讲课程：本科生课程教学。网络与数据平台建设，网络资源，数据共享。'),
    ).toEqual([]);
    expect(classifyResearchFields('Curriculum Vitae. Teaching: two courses per year.')).toEqual([]);
    // One named field on each side and nothing else: a tie is no evidence for either.
    expect(classifyResearchFields('I work on physics and chemistry.')).toEqual([]);
    expect(classifyResearchFields('I work on machine learning.')).toEqual(['computer-science']);
  });

  it('an English lab page: citation and recruiting lines stay out of the summary; "Prof. Zhang Lei 张磊" is found', () => {
    const profile = extractResearchProfileOffline(homepage('en-materials-lab-recruiting.txt'));
    expect(profile).toMatchObject({
      name: '张磊',
      email: 'zhanglei@sjtu.edu.cn',
      institution: 'Shanghai Jiao Tong University',
      position: 'Professor',
      researchFields: ['materials-science'],
    });
    const summary = profile.researchSummaryEn;
    expect(summary.startsWith('Our lab studies how defects and interfaces control')).toBe(true);
    for (const left of [
      'Advanced Materials',
      'Nature Communications',
      'ACS Nano',
      'Defect engineering in monolayer',
      'Wafer-scale growth of WSe2',
      'Recruiting',
      'PhD students',
      'send your CV',
      'looking for motivated students',
    ]) {
      expect(summary).not.toContain(left);
    }
  });

  it('a mixed Chinese/English page: "张磊 Zhang Lei", English research kept, citation and 招收 lines left out', () => {
    const profile = extractResearchProfileOffline(homepage('mixed-bio-lab-zh-en.txt'));
    expect(profile).toMatchObject({
      name: '张磊',
      email: 'zhanglei@sinh.ac.cn',
      institution: '中国科学院上海营养与健康研究所',
      position: '研究员、博士生导师',
    });
    expect(profile.researchFields).toEqual(expect.arrayContaining(['biology', 'medicine']));
    expect(profile.researchSummaryEn).toContain('metabolic signals regulate the immune system');
    for (const left of ['Cell Metabolism', 'Zhou Q.', 'recruiting', '招收', 'contact Dr. Zhang']) {
      expect(profile.researchSummaryEn).not.toContain(left);
    }
  });

  it.each([
    ['Zhang Lei 张磊\nProfessor of Chemistry', '张磊'],
    ['张磊 Zhang Lei\n教授', '张磊'],
    ['Prof. Zhang Lei\nPeking University', 'Zhang Lei'],
    ['Prof. Zhang Lei 张磊\nPeking University', '张磊'],
    ['Zhang Lei (张磊)\nAssociate Professor', '张磊'],
  ])('finds the name in %j', (text, name) => {
    expect(findName(text)).toBe(name);
  });

  it.each([
    'Li X., Chen W., Zhang L. Defect engineering in monolayer MoS2 for hydrogen evolution. Advanced Materials, 2022, 34, 2201234.',
    'X. Li, W. Chen and L. Zhang, Strain-tunable photodetectors based on heterostructures, ACS Nano 14 (2020) 1200-1210.',
    '[3] Smith J., Wang Y. Graph neural networks for molecular property prediction, 2021.',
    'Recruiting: PhD students and postdocs in machine learning are welcome to apply to our research group.',
    'We are looking for motivated PhD students who want to work on quantum materials and their devices.',
    '招收 PhD students and postdocs: our lab studies deep learning methods for protein structure prediction.',
    '招聘博士后 — postdoctoral researchers will develop new catalysts for hydrogen production in our group.',
  ])('keeps %j out of the summary', (line) => {
    const research =
      'Our group develops machine learning methods for protein structure prediction and studies how proteins fold in living cells.';
    const { summary } = buildEnglishSummary(`${research}\n${line}`);
    expect(summary).toBe(research);
  });
});
