import { createRequire } from 'node:module';
import { RESEARCH_FIELDS } from '@radar/shared';
import { FIELD_LEXICON } from './field-lexicon';
import { loadCedict } from './gloss/cedict';
import { CURATED_RESEARCH_TERMS } from './gloss/research-terms';

/**
 * Offline Chinese -> English glossing of research text: jieba segmentation, then a longest match of
 * adjacent segments against our curated table, the research-field lexicon and CC-CEDICT, then an English
 * term per match. Not yet used by the product (issue 20 wires it into the extractor, search, embeddings).
 */
export type GlossSource = 'curated' | 'cedict' | 'field';
export interface GlossedTerm {
  zh: string;
  en: string;
  source: GlossSource;
}

interface Segmenter {
  cut(text: string, hmm?: boolean): string[];
}

let segmenter: Segmenter | undefined;

function jieba(): Segmenter {
  if (!segmenter) {
    // Loaded lazily: the native binding and its 5 MB dictionary are only paid for by callers of glossing.
    const require = createRequire(import.meta.url);
    const { Jieba } = require('@node-rs/jieba') as { Jieba: { withDict(dict: Uint8Array): Segmenter } };
    const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
    segmenter = Jieba.withDict(dict);
  }
  return segmenter;
}

/** Field names (数学 -> mathematics) and the Chinese keywords of the field lexicon, with a fixed gloss where one exists. */
const FIELD_NAME_GLOSS = new Map<string, string>(
  RESEARCH_FIELDS.map((field) => [field.labelZh, field.label.toLowerCase().replace(/ & /g, ' and ')]),
);
const FIELD_CHINESE_TERMS = new Set<string>(
  // Only the strong keywords: the weak ones (数据, 网络, 社会) are everyday words in a homepage.
  Object.values(FIELD_LEXICON).flatMap(({ strong }) => strong.filter((term) => /[\u4e00-\u9fff]/.test(term))),
);

/**
 * Words that carry no research content: homepage boilerplate (who to contact, whom we recruit, CV
 * headings), academic titles and institutions, and frequent function words that jieba keeps as words.
 */
const NON_RESEARCH_WORDS = new Set(
  `欢迎 招收 招生 报考 加入 电话 邮箱 邮件 地址 办公室 联系 联系方式 传真 课题组 实验室 团队 成员 个人简介 简介 主页 个人主页
  教育背景 工作经历 学习经历 研究方向 研究兴趣 研究领域 主要 研究 方向 兴趣 领域 从事 致力于 聚焦 围绕 关注 开展 承担 主持 参与
  教授 副教授 讲师 研究员 副研究员 助理 博士 硕士 博士后 博士生 硕士生 研究生 本科生 学生 同学 导师 博导 院士 学者 青年
  大学 学院 系 研究所 研究院 中心 科学院 中国科学院 国家 重点 项目 基金 国家自然科学基金 课题 论文 发表 期刊 代表性 代表作 成果 著作 专著
  获得 担任 现任 毕业 学位 至今 年 月 日 年度 近年来 目前 长期 多年 以来 简历 发送 请 感兴趣 积极 优秀 热情 良好 具有 具备 背景
  包括 以及 相关 方面 工作 利用 基于 通过 结合 进行 对于 关于 其中 同时 可以 能够 等等 一些 这些 那些 我们 本人 我 他 她 其 并 和 与 及
  的 了 在 是 为 对 等 中 上 下 以 及其 已 将 被 由 从 向 于 之 也 都 而 或 但 如 若 并且 以及 主要包括 方法 问题 应用 理论 技术 系统 发展
  机制 作用 影响 新 高 多 大 小 好 很 更 最 及时 来信 合作 国际 国内 访问 学术 交流 任职 入选 计划 人才 奖 一等奖 二等奖 省部级`.split(
    /\s+/,
  ),
);

const HAN = /[\u4e00-\u9fff]/;
const MAX_JOIN = 8;

interface Occurrence extends GlossedTerm {
  /** Inside a sentence that mentions research (研究, 从事, 致力于 ...): counts double. */
  cued: boolean;
  /** Inside a sentence where the author states their direction (研究方向：..., 主要从事 ...). */
  stated: boolean;
}

function glossWord(word: string): GlossedTerm | undefined {
  const curated = CURATED_RESEARCH_TERMS.get(word);
  if (curated) return { zh: word, en: curated, source: 'curated' };
  const fieldName = FIELD_NAME_GLOSS.get(word);
  if (fieldName) return { zh: word, en: fieldName, source: 'field' };
  const sense = loadCedict().get(word)?.[0];
  if (FIELD_CHINESE_TERMS.has(word) && sense) return { zh: word, en: sense.toLowerCase(), source: 'field' };
  if (sense) return { zh: word, en: sense, source: 'cedict' };
  return undefined;
}

/**
 * Segments are joined back only into our own terms: jieba's dictionary already holds CEDICT's common
 * words, so two segments it kept apart that happen to spell a CEDICT entry (中 + 的 -> 中的, "hit the
 * target") are almost always a false join.
 */
function isOwnTerm(word: string): boolean {
  return CURATED_RESEARCH_TERMS.has(word) || FIELD_NAME_GLOSS.has(word) || FIELD_CHINESE_TERMS.has(word);
}

const RESEARCH_CUE = /研究|从事|致力|聚焦|方向|兴趣|关注|专注|擅长|主攻/;
const STATED_DIRECTION = /研究方向|研究兴趣|研究领域|主要研究|主要从事|致力于/;

function glossOccurrences(text: string): Occurrence[] {
  const occurrences: Occurrence[] = [];
  for (const sentence of text.split(/[。；;！!？?\n\r]+/)) {
    const cued = RESEARCH_CUE.test(sentence);
    const stated = STATED_DIRECTION.test(sentence);
    const tokens = jieba().cut(sentence, false);
    let i = 0;
    while (i < tokens.length) {
      if (!HAN.test(tokens[i] as string)) {
        i += 1;
        continue;
      }
      // Longest run of adjacent Chinese segments that is a known term: jieba splits 图神经网络 into 图 + 神经网络.
      let end = i + 1;
      for (let j = Math.min(tokens.length, i + MAX_JOIN); j > i + 1; j -= 1) {
        const run = tokens.slice(i, j);
        if (run.every((token) => HAN.test(token)) && isOwnTerm(run.join(''))) {
          end = j;
          break;
        }
      }
      const word = tokens.slice(i, end).join('');
      i = end;
      // Single characters are too ambiguous to gloss unless we curated them.
      if (NON_RESEARCH_WORDS.has(word) || (word.length < 2 && !CURATED_RESEARCH_TERMS.has(word))) continue;
      const glossed = glossWord(word);
      if (glossed) occurrences.push({ ...glossed, cued, stated });
    }
  }
  return occurrences;
}

/** Chinese terms of the text glossed to English, in order of first occurrence, each once. */
export function glossChinese(text: string): { terms: GlossedTerm[] } {
  const seen = new Set<string>();
  const terms: GlossedTerm[] = [];
  for (const { zh, en, source } of glossOccurrences(text)) {
    if (seen.has(zh)) continue;
    seen.add(zh);
    terms.push({ zh, en, source });
  }
  return { terms };
}

/** English research phrases already in a mixed text: our curated terms' English and the field lexicon's English keywords. */
const ENGLISH_RESEARCH_PHRASES = [
  ...new Set([
    ...CURATED_RESEARCH_TERMS.values(),
    ...Object.values(FIELD_LEXICON).flatMap(({ strong }) => strong.filter((term) => !HAN.test(term))),
  ]),
]
  .sort((a, b) => b.length - a.length)
  .map((phrase) => ({
    phrase,
    // Plural forms count ("graph neural networks"); the phrase must stand as whole words.
    pattern: new RegExp(`(?<![a-z0-9-])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:s|es)?(?![a-z0-9-])`, 'g'),
  }));

function englishPhrases(text: string): { en: string; index: number }[] {
  let rest = text.replace(/[\u4e00-\u9fff]+/g, ' ').toLowerCase();
  const found: { en: string; index: number }[] = [];
  if (!/[a-z]{3}/.test(rest)) return found;
  for (const { phrase, pattern } of ENGLISH_RESEARCH_PHRASES) {
    if (!rest.includes(phrase)) continue;
    for (const match of rest.matchAll(pattern)) {
      found.push({ en: phrase, index: match.index });
    }
    // Blank out what matched so "neural network" does not count again inside "graph neural network".
    rest = rest.replace(pattern, (match) => ' '.repeat(match.length));
  }
  return found.sort((a, b) => a.index - b.index);
}

const SOURCE_WEIGHT: Record<GlossSource, number> = { curated: 3, field: 2, cedict: 1 };
const MAX_DRAFT_TERMS = 10;

/**
 * Research terms count for the draft when they are curated, name a field or a field-lexicon keyword, or
 * are longer CEDICT compounds (3+ characters, at most four English words); shorter CEDICT words are too
 * often everyday words ("发现" -> discover) to be stated as a research interest.
 */
function isResearchTerm(term: GlossedTerm): boolean {
  if (term.source !== 'cedict') return true;
  return term.zh.length >= 3 && term.en.split(' ').length <= 4 && !/^[A-Z]/.test(term.en);
}

/**
 * An English draft of the research direction ("Research interests: a, b, c.") from the research terms
 * of a Chinese or mixed text. The terms of the sentences where the author states a direction
 * (研究方向：..., 主要从事 ...) come first, in the author's order; then the rest by salience (curated >
 * field > dictionary, counted, doubled in sentences about research; ties by first occurrence). Null when
 * no research term was found.
 */
export function draftEnglishDirection(text: string): { summary: string; terms: string[] } | null {
  const scores = new Map<string, { score: number; first: number; stated: number }>();
  let position = 0;
  const add = (en: string, score: number, stated: boolean) => {
    const entry = scores.get(en) ?? { score: 0, first: position, stated: Number.POSITIVE_INFINITY };
    entry.score += score;
    if (stated) entry.stated = Math.min(entry.stated, position);
    scores.set(en, entry);
    position += 1;
  };
  for (const occurrence of glossOccurrences(text)) {
    if (!isResearchTerm(occurrence)) continue;
    add(occurrence.en, SOURCE_WEIGHT[occurrence.source] * (occurrence.cued ? 2 : 1), occurrence.stated);
  }
  for (const phrase of englishPhrases(text)) add(phrase.en, SOURCE_WEIGHT.curated, false);
  if (scores.size === 0) return null;
  const terms = [...scores.entries()]
    .sort(([, a], [, b]) => {
      if (a.stated !== b.stated) return a.stated - b.stated || 0;
      return b.score - a.score || a.first - b.first;
    })
    .slice(0, MAX_DRAFT_TERMS)
    .map(([en]) => en);
  return { summary: `Research interests: ${terms.join(', ')}.`, terms };
}
