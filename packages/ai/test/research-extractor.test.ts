import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
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

  it('a Chinese-only page: fields and contact details, no English summary, and a notice saying why', () => {
    const profile = extractResearchProfileOffline(homepage('zh-cs-professor.txt'));
    expect(profile).toMatchObject({
      name: '张伟',
      email: 'zhangwei@tsinghua.edu.cn',
      institution: '清华大学计算机科学与技术系',
      position: '教授、博士生导师',
      researchFields: ['computer-science'],
      researchSummaryEn: '',
    });
    expect(profile.notices).toEqual([NOTICES.noEnglish]);
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
  it('returns the shared result shape, with notices for what it could not do', async () => {
    const result = await new OfflineResearchProfileExtractor().extract('我们课题组研究量子计算。邮箱：a(at)b.cn');
    expect(result).toEqual({
      name: '',
      email: 'a@b.cn',
      institution: '',
      position: '',
      research_fields: ['physics-astronomy'],
      research_summary_en: '',
      source: 'offline',
      model: 'offline-rules',
      notices: [NOTICES.noEnglish],
    });
  });

  it('says when the English research text is short', async () => {
    const result = await new OfflineResearchProfileExtractor().extract(
      'My research focuses on graph algorithms for large social networks and their applications.',
    );
    expect(result.research_summary_en).toContain('graph algorithms');
    expect(result.notices).toEqual([NOTICES.shortEnglish(13)]);
  });
});
