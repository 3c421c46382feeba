import { createRequire } from 'node:module';
import { RESEARCH_FIELDS } from '@radar/shared';
import { FIELD_LEXICON } from './field-lexicon';
import { searchAlternatives } from './gloss/alternatives';
import { cedictActionNouns, cedictVerbs, loadCedict } from './gloss/cedict';
import { CURATED_RESEARCH_TERMS, MODIFIER_SENSES, RESEARCH_SENSES } from './gloss/research-terms';

/**
 * Offline Chinese -> English glossing of research text: jieba segmentation, then a longest match of
 * adjacent segments against our curated table, the research-field lexicon and CC-CEDICT, then an English
 * term per match. Used by the offline extractor (an English draft of a Chinese homepage) and by article
 * and news search (the English a Chinese keyword also matches).
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
  机制 作用 影响 新 高 多 大 小 好 很 更 最 及时 来信 合作 国际 国内 访问 学术 交流 任职 入选 计划 人才 奖 一等奖 二等奖 省部级
  电子邮件 通讯地址 邮编 地点 大规模 一系列 获得者 博士学位 硕士学位 学士学位 医学院 科学技术 具体 如何 手段 综合 运用 上述`.split(
    /\s+/,
  ),
);

/**
 * Dictionary words too general to make a phrase specific: an item of these and research senses only
 * (结构调控 -> "structure regulation", 结构稳定性) says nothing a reader could be matched on.
 */
const GENERIC_WORDS = new Set(
  `结构 功能 性质 特性 特征 过程 行为 规律 效应 因素 模式 体系 设计 分析 策略 框架 平台 模型 材料 数据 信息 方案 手段 途径 过程 原理 效率 质量 水平 能力 条件 环境 因子 变化 关系 作用 性能
  角色 本质 来源 意义 特点 现象 内容 方式 类型 趋势 局限 差异 视角 范式 概念 维度 层面 基础 核心 关键 前沿 热点 对象 背景
  目标 主题 任务 挑战 瓶颈 潜力 启示 线索 效果 结果 表现 状况 状态 程度 规模 数量 比例 职能 细节 部分 整体 个体 工具
  调控 合成 检测 识别 优化 建模 模拟 仿真 表征 预测 分类 评估 测量 训练 推理 感知 服务 制备 管理 控制 处理 表达
  形式 形成 构建 建立 进展 贡献 认识 理解 解释 讨论 问题 情形 情况 时期 阶段 时间 空间 区域 范围 领域 层次 功能 条件 机构 单位`.split(
    /\s+/,
  ),
);

const HAN = /[\u4e00-\u9fff]/;
const MAX_JOIN = 8;

/**
 * Where a draft's term came from besides a gloss: English the author wrote inside the Chinese text
 * ("混合专家模型 (Mixture-of-Experts)"), or one item of a stated enumeration glossed word by word
 * (固态电解质界面 -> "solid state electrolyte interface").
 */
type DraftSource = GlossSource | 'author' | 'composed';

interface Occurrence {
  zh: string;
  en: string;
  source: DraftSource;
  /** Inside a sentence that mentions research (研究, 从事, 致力于 ...): counts double. */
  cued: boolean;
  /** Inside a sentence where the author states their direction (研究方向：..., 主要从事 ...). */
  stated: boolean;
  /** Can be a term of the draft (a phrase, one of our terms, the author's English), not only glossed text. */
  draft: boolean;
}

function glossWord(word: string): GlossedTerm | undefined {
  const curated = CURATED_RESEARCH_TERMS.get(word);
  if (curated) return { zh: word, en: curated, source: 'curated' };
  const fieldName = FIELD_NAME_GLOSS.get(word);
  if (fieldName) return { zh: word, en: fieldName, source: 'field' };
  const researchSense = RESEARCH_SENSES.get(word);
  if (researchSense) return { zh: word, en: researchSense, source: 'cedict' };
  const sense = loadCedict().get(word)?.[0];
  if (FIELD_CHINESE_TERMS.has(word) && sense) return { zh: word, en: sense, source: 'field' };
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
const STATED_DIRECTION = /研究方向|研究兴趣|研究领域|研究内容|主要研究|主要从事|致力于/;

/**
 * Homepage section headings (a short line of its own). The research section's lines count as stated
 * directions; the CV, contact, recruiting and teaching sections say nothing about the research and
 * are skipped; publications and projects count as plain text.
 */
const HEADING_MAX_LENGTH = 14;
const RESEARCH_HEADING = /研究方向|研究兴趣|研究领域|研究内容|研究重点|主要研究/;
const SKIPPED_HEADING =
  /教育背景|工作经历|学习经历|教育经历|个人经历|基本信息|联系|招生|招聘|招收|主讲|讲授|教授课程|课程|获奖|荣誉|学术兼职|社会兼职|团队成员|成员/;

/**
 * Clauses (between commas) about the person rather than the research: degrees, posts, awards,
 * recruiting. "2008年毕业于北京大学历史学系，获历史学博士学位" names fields that are not a direction.
 */
const BIOGRAPHY_CLAUSE =
  /毕业|学位|学士|负责人|带头人|首席|主要研究者|主任|附属医院|三甲|门诊|出诊|博士后|访学|访问学者|获得者|入选|荣获|获得|加入|任教|现任|兼任|曾任|担任|任职|就职|招收|招聘|招生|欢迎|报考|发送|简历|主持|基金|出版社|学报/;

/** Segments that end the name of an institution: the segments just before them are its name, not research. */
const INSTITUTION_END =
  /^(?:大学|学院|研究所|研究院|科学院|系|学部|中心|研究中心|实验室|重点实验室|研究室|教研室)$|(?:大学|学院|研究所|研究院|科学院|中心|实验室)$/;
/** Segments an institution's name never runs back past. */
const NAME_BOUNDARY = new Set(['的', '在', '于', '从事', '研究', '主要', '和', '及', '以及', '是', '为', '任', '现任']);
const MAX_INSTITUTION_SEGMENTS = 6;

/** Splits text into sentences, each marked as in the stated research section or not; skipped sections are left out. */
function sectionSentences(text: string): { sentence: string; inResearchSection: boolean }[] {
  const out: { sentence: string; inResearchSection: boolean }[] = [];
  let section: 'research' | 'skipped' | 'other' = 'other';
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!line) continue;
    const bare = line.replace(/[\s:：|｜\-—_*#【】[\]（）()0-9一二三四五六七八九十、.]/g, '');
    if (bare.length > 0 && bare.length <= HEADING_MAX_LENGTH && !/[，,。；;]/.test(line)) {
      if (RESEARCH_HEADING.test(bare)) section = 'research';
      else if (SKIPPED_HEADING.test(bare)) section = 'skipped';
      else section = 'other';
      // A heading that only names the section carries no term ("研究方向", "科研项目").
      if (RESEARCH_HEADING.test(bare) || SKIPPED_HEADING.test(bare) || !HAN.test(bare) || bare.length <= 6) continue;
    }
    // Skipped sections, and reference lines: a cited title's words come with authors, venues and years.
    if (section === 'skipped' || REFERENCE_LINE.test(line)) continue;
    // A CV, contact or recruiting label with its content on the same line (教育背景：2008-2012 …).
    const label = /^([^：:，,。]{2,8})[：:]/.exec(line.replace(/^[\s*#【[]+/, ''));
    if (label && SKIPPED_HEADING.test(label[1] as string)) continue;
    for (const sentence of line.split(/[。；;！!？?]+/)) {
      if (sentence.trim() && !CONTACT.test(sentence)) out.push({ sentence, inResearchSection: section === 'research' });
    }
  }
  return out;
}

/** A sentence with contact details (address, telephone, e-mail). */
const CONTACT = /@|\(at\)|#[a-z0-9-]+\.|邮箱|电话|传真|地址|邮编|e-?mail/i;

/** Indices of segments that belong to an institution's name (清华大学 计算机科学 与 技术 系). */
function institutionSegments(tokens: string[]): Set<number> {
  const masked = new Set<number>();
  tokens.forEach((token, index) => {
    if (!INSTITUTION_END.test(token)) return;
    masked.add(index);
    for (let back = index - 1; back >= 0 && index - back <= MAX_INSTITUTION_SEGMENTS; back -= 1) {
      const previous = tokens[back] as string;
      if (!HAN.test(previous) || NAME_BOUNDARY.has(previous)) break;
      masked.add(back);
    }
  });
  return masked;
}

/**
 * The glossed words of a text in order. Any text: every sentence. A homepage (`homepage`): only what
 * is about the research: skipped sections, biography clauses and institution names are left out.
 */
function glossOccurrences(text: string, homepage: boolean): Occurrence[] {
  const occurrences: Occurrence[] = [];
  // Text without a Chinese character never loads the segmenter or the dictionary.
  if (!HAN.test(text)) return occurrences;
  if (!homepage) {
    for (const sentence of text.split(/[。；;！!？?\n\r]+/)) {
      const marks = { cued: RESEARCH_CUE.test(sentence), stated: STATED_DIRECTION.test(sentence) };
      if (HAN.test(sentence)) glossClause(sentence, marks, false, occurrences);
    }
    return occurrences;
  }
  for (const { sentence, inResearchSection } of sectionSentences(text)) {
    const cued = inResearchSection || RESEARCH_CUE.test(sentence);
    const stated = inResearchSection || STATED_DIRECTION.test(sentence);
    for (const clause of sentence.split(/[，,]/)) {
      if (!HAN.test(clause) || BIOGRAPHY_CLAUSE.test(clause)) continue;
      glossClause(clause, { cued, stated }, true, occurrences);
    }
    for (const en of authorEnglishTerms(sentence)) {
      occurrences.push({ zh: en, en, source: 'author', cued, stated, draft: true });
    }
  }
  return occurrences;
}

/** Clauses naming where the author published or serves (在 Nature Energy、JACS 等期刊发表): venues are no research terms. */
const VENUE_CLAUSE = /发表|期刊|会议|收录|录用|编委|审稿|主编|刊物|杂志/;
/** English words of a homepage's boilerplate and of institution names; a run with one of the latter is a name. */
const ENGLISH_BOILERPLATE = new Set(
  'professor associate assistant lecturer researcher phd ph.d postdoc student students email e-mail tel phone fax homepage home page profile research interests interest group lab welcome contact office cv'.split(
    ' ',
  ),
);
const ENGLISH_INSTITUTION =
  /\b(?:university|college|institute|department|school|laboratory|academy|hospital|center|centre|press|journal)\b/i;
const ENGLISH_EDGE_STOPWORDS = new Set(
  'a an the of and or in on for with to via by from as at is are be its their our this that'.split(' '),
);
/** A run of English words inside Chinese text (Latin or Greek letters of any accent, digits, hyphens, apostrophes; spaces between). */
const ENGLISH_RUN =
  /[\p{Script=Latin}\p{Script=Greek}][\p{Script=Latin}\p{Script=Greek}\p{N}]*(?:['’-][\p{Script=Latin}\p{Script=Greek}\p{N}]+)*(?:[ \t]+[\p{Script=Latin}\p{Script=Greek}\p{N}]+(?:['’-][\p{Script=Latin}\p{Script=Greek}\p{N}]+)*)*/gu;
const MAX_AUTHOR_TERM_WORDS = 6;

/**
 * English terms the author wrote inside a Chinese sentence, as they wrote them: a term in brackets after
 * its Chinese (图神经网络（graph neural networks）, 粒度 (Granularity)) or inline (也关注 large language
 * models). The author's own English beats any gloss. Left out: clauses about venues and the author's
 * career, acronyms and names of products or models (MoE, DeepSeek, Llama-4), institution names, title-case
 * runs outside brackets (Nature Energy, Wei Zhang), and longer runs, which are English sentences.
 */
function authorEnglishTerms(sentence: string): string[] {
  const terms: string[] = [];
  for (const clause of sentence.split('，')) {
    if (VENUE_CLAUSE.test(clause) || BIOGRAPHY_CLAUSE.test(clause) || !/\p{Script=Latin}{3}/u.test(clause)) continue;
    for (const match of clause.matchAll(ENGLISH_RUN)) {
      const before = clause.slice(0, match.index).trimEnd();
      const bracketed = /[(（]$/.test(before) && HAN.test(before.slice(-2, -1));
      for (const part of match[0].split(/\s+(?:and|or)\s+/i)) {
        const term = authorTerm(part, bracketed);
        if (term) terms.push(term);
      }
    }
  }
  return terms;
}

function authorTerm(run: string, bracketed: boolean): string | undefined {
  const words = run.trim().split(/\s+/);
  while (words.length > 0 && ENGLISH_EDGE_STOPWORDS.has((words[0] as string).toLowerCase())) words.shift();
  while (words.length > 0 && ENGLISH_EDGE_STOPWORDS.has((words.at(-1) as string).toLowerCase())) words.pop();
  if (words.length === 0 || words.length > MAX_AUTHOR_TERM_WORDS) return undefined;
  if (words.some((word) => /\d/.test(word) || ENGLISH_BOILERPLATE.has(word.toLowerCase()))) return undefined;
  if (ENGLISH_INSTITUTION.test(words.join(' '))) return undefined;
  // Acronyms and product names (RAG, MoE, DeepSeek): capitals after the first letter.
  const named = (word: string) => /^\p{L}\p{Ll}*\p{Lu}/u.test(word);
  if (words.length === 1 && (named(words[0] as string) || (words[0] as string).length < 4)) return undefined;
  if (words.every(named)) return undefined;
  const titleWord = (word: string) => /^\p{Lu}[\p{Ll}'’]*(?:-\p{L}[\p{Ll}'’]*)*$/u.test(word);
  if (words.every(titleWord) && words.length > 1 && !bracketed) return undefined;
  return words.map((word) => (titleWord(word) ? word.toLowerCase() : word)).join(' ');
}

/** Segments between the items of an enumeration (钙钛矿电池、有机光伏与柔性电子器件的稳定性). */
const ITEM_SEPARATORS = new Set(['、', '与', '和', '及', '以及', '及其', '或', '等', '的', '并', '跟', '同', '之']);
/**
 * Separators after which the next word is the head of what came before, not an item of its own:
 * 商团、捐税等职能 ("functions" of the listed ones), 芽基的形成 ("formation" of the blastema).
 */
const HEAD_FOLLOWS = new Set(['等', '的', '之']);
/** A noun phrase glossed word by word up to this size; longer runs are clauses, glossed word by word. */
const MAX_ITEM_WORDS = 4;
const MAX_PHRASE_WORDS = 6;

/**
 * jieba's part-of-speech tags of words that never stand inside a noun phrase: adverbs, prepositions,
 * conjunctions, particles, pronouns, numerals, classifiers, locatives, time words, idioms.
 */
const NON_PHRASE_TAGS = new Set(
  'd ad df dg p c u uj ul uz ug ud uv r rr rz rg m mq mg q f t tg y e o i k h x'.split(' '),
);
let nonPhraseWords: Set<string> | undefined;
let adjectiveWords: Set<string> | undefined;

/** Reads the tags of jieba's dictionary once: the words that are no noun, and the adjectives. */
function loadJiebaTags(): void {
  const require = createRequire(import.meta.url);
  const { dict } = require('@node-rs/jieba/dict') as { dict: Uint8Array };
  nonPhraseWords = new Set();
  adjectiveWords = new Set();
  for (const line of Buffer.from(dict).toString('utf8').split('\n')) {
    const [entry, , rawTag] = line.split(' ');
    const tag = rawTag?.trim();
    if (!entry || !tag) continue;
    if (NON_PHRASE_TAGS.has(tag)) nonPhraseWords.add(entry);
    else if (tag === 'a') adjectiveWords.add(entry);
  }
}

/** Words of jieba's dictionary tagged NON_PHRASE_TAGS (尤其, 之间, 前后, 目前, 国内外 is kept: a place word). */
function isNonPhraseWord(word: string): boolean {
  if (!nonPhraseWords) loadJiebaTags();
  return (nonPhraseWords as Set<string>).has(word);
}

/** Words jieba's dictionary tags as adjectives (完整, 奇特): before a noun they modify it, alone they name nothing. */
function isAdjectiveWord(word: string): boolean {
  if (!adjectiveWords) loadJiebaTags();
  return (adjectiveWords as Set<string>).has(word);
}

/** English a dictionary sense starts with when it is no noun or adjective ("after", "around", "very"). */
const FUNCTION_SENSE =
  /^(?:in|on|at|of|for|by|with|as|to|out|up|down|off|might|may|can|could|should|would|will|must|after|before|around|about|between|among|within|without|during|towards?|from|into|onto|upon|under|over|each|every|all|some|any|very|more|most|much|many|such|this|that|these|those|its|their|our|not|no|only|also|even|again|already|still|just|readily|especially|mainly|mostly|how|what|why|when|where|which|who|one's|oneself|be|is|are|have|has|do|does)\b/i;

/** Letters of acronyms and names written inside Chinese text (Wnt, CRISPR, Lgr5, β, Fröhlich). */
const LATIN_WORD = /^[\p{Script=Latin}\p{Script=Greek}][\p{Script=Latin}\p{Script=Greek}\p{N}]*$/u;

type WordKind = 'term' | 'noun' | 'verb' | 'latin';

interface ItemWord {
  word: string;
  en: string;
  source: GlossSource;
  kind: WordKind;
}

/**
 * The noun of a verb's action, for a verb that ends a noun phrase (基因 编辑 -> "gene editing", 信号 转导
 * -> "signal transduction"): a research sense, the dictionary's own noun of the action, or one made from
 * a one-word verb sense by its ending (regulate -> regulation, optimize -> optimization) or a short
 * list (edit -> editing, grow -> growth). Undefined otherwise: a verb ending a phrase is mostly the
 * clause's own verb (提供, 发生), and a sense of several words ("correct an error") is no noun.
 */
function actionNoun(word: string, sense: string): string | undefined {
  const noun = RESEARCH_SENSES.get(word) ?? cedictActionNouns().get(word);
  if (noun) return noun;
  const verb = (sense.split(',')[0] as string).trim().toLowerCase();
  if (!/^[a-z]+$/.test(verb) || verb.length < 3) return undefined;
  const irregular = IRREGULAR_ACTION_NOUNS[verb];
  if (irregular) return irregular;
  if (/[^aeiou]ate$/.test(verb)) return `${verb.slice(0, -1)}ion`;
  if (verb.endsWith('ize')) return `${verb.slice(0, -1)}ation`;
  if (verb.endsWith('duce')) return `${verb.slice(0, -2)}ction`;
  if (verb.endsWith('ify')) return `${verb.slice(0, -1)}ication`;
  // Other verbs ending a phrase are mostly the clause's own verb (X 发生, 提供 X): no noun is made of them.
  return undefined;
}

/** Verbs whose noun of the action no ending rule makes. */
const IRREGULAR_ACTION_NOUNS: Record<string, string> = {
  edit: 'editing',
  sequence: 'sequencing',
  map: 'mapping',
  model: 'modeling',
  image: 'imaging',
  label: 'labeling',
  screen: 'screening',
  sort: 'sorting',
  print: 'printing',
  trace: 'tracing',
  fold: 'folding',
  splice: 'splicing',
  signal: 'signaling',
  test: 'testing',
  mine: 'mining',
  learn: 'learning',
  teach: 'teaching',
  read: 'reading',
  write: 'writing',
  translate: 'translation',
  infer: 'inference',
  occur: 'occurrence',
  refer: 'reference',
  control: 'control',
  transfer: 'transfer',
  analyze: 'analysis',
  analyse: 'analysis',
  diagnose: 'diagnosis',
  synthesize: 'synthesis',
  hydrolyze: 'hydrolysis',
  describe: 'description',
  explain: 'explanation',
  measure: 'measurement',
  manage: 'management',
  develop: 'development',
  govern: 'governance',
  fail: 'failure',
  respond: 'response',
  emit: 'emission',
  admit: 'admission',
  transmit: 'transmission',
  observe: 'observation',
  repair: 'repair',
  design: 'design',
  change: 'change',
  trade: 'trade',
  move: 'movement',
  grow: 'growth',
  die: 'death',
  select: 'selection',
  detect: 'detection',
  predict: 'prediction',
  express: 'expression',
  suppress: 'suppression',
  compress: 'compression',
  regress: 'regression',
  assess: 'assessment',
  process: 'processing',
};

/** The first sense of a gloss, without a qualifier after a comma. */
function firstSense(en: string): string {
  return (en.split(',')[0] as string).trim();
}

/**
 * Glosses one clause. Homepage clauses about research (`compose`): the clause is split into noun
 * phrases at separators (、与和的), boilerplate and function words, words that are no noun (adverbs,
 * prepositions, numerals, by jieba's tags) and verbs. Each phrase of dictionary words, our terms and
 * acronyms (Wnt 信号通路 -> "Wnt signaling pathway") becomes one term in the author's word order, which
 * is English noun-compound order (固态 电解质 界面 -> "solid state electrolyte interface"); a verb after
 * a noun ends its phrase as the noun of its action (CRISPR 基因 编辑 -> "CRISPR gene editing"); a verb
 * that starts a phrase (解析, 调控 X) is dropped; 非 before a word makes it "non-" (非 相对论 ->
 * "non-relativistic"). A phrase of one dictionary word is a term when it stands between separators (利用
 * 拟南芥、水稻等材料) and is not a general word. Every word still counts for the glossed text
 * (glossResearchText); only phrases and our terms are draft terms. Other text: each word on its own.
 */
function glossClause(
  clause: string,
  marks: { cued: boolean; stated: boolean },
  homepage: boolean,
  occurrences: Occurrence[],
): void {
  const tokens = jieba().cut(clause, false);
  if (!homepage) {
    for (const { word } of chineseWords(tokens)) {
      if (NON_RESEARCH_WORDS.has(word) || (word.length < 2 && !CURATED_RESEARCH_TERMS.has(word))) continue;
      const glossed = glossWord(word);
      if (glossed) occurrences.push({ ...glossed, ...marks, draft: isResearchTerm(glossed) });
    }
    return;
  }
  const institution = institutionSegments(tokens);
  const compose = !VENUE_CLAUSE.test(clause);
  let item: ItemWord[] = [];
  let startsAtBoundary = true;

  /** Each word of an item on its own: counted for the glossed text, a draft term only if it is one of ours or a long dictionary noun. */
  const wordByWord = (words: ItemWord[]) => {
    for (const entry of words) {
      if (entry.kind === 'latin') continue;
      const term = { zh: entry.word, en: entry.en, source: entry.source };
      occurrences.push({ ...term, ...marks, draft: compose && entry.kind !== 'verb' && isResearchTerm(term) });
    }
  };

  const flush = (endsAtBoundary: boolean, nextStartsAtBoundary = true) => {
    const words = item;
    const bounded = startsAtBoundary && endsAtBoundary;
    item = [];
    startsAtBoundary = nextStartsAtBoundary;
    const chinese = words.filter((entry) => entry.kind !== 'latin');
    if (chinese.length === 0) return;
    if (!compose || chinese.length > MAX_ITEM_WORDS) {
      wordByWord(words);
      return;
    }
    const zh = words.map((entry) => entry.word).join('');
    if (words.length === 1) {
      const only = words[0] as ItemWord;
      // An adjective on its own (高效 "efficient") names nothing.
      const adjective =
        MODIFIER_SENSES.get(only.word) === firstSense(only.en) || (only.kind === 'noun' && isAdjectiveWord(only.word));
      const general = GENERIC_WORDS.has(only.word) || adjective;
      // The noun of an action needs no separator before it (肠道干细胞的分化 -> "differentiation").
      const action = only.kind === 'verb' || (RESEARCH_SENSES.has(only.word) && cedictVerbs().has(only.word));
      const standsAlone = bounded || (action && endsAtBoundary);
      if (
        (only.kind === 'noun' || only.kind === 'verb') &&
        standsAlone &&
        !general &&
        only.word.length >= 2 &&
        // A name (朱熹, 徽州) only between separators: a person or place the research is about.
        (bounded || !/^\p{Lu}/u.test(only.en))
      ) {
        occurrences.push({ zh, en: firstSense(only.en), source: 'composed', ...marks, draft: true });
      } else wordByWord(words);
      return;
    }
    // Our terms of several English words are whole phrases already: side by side with another of our
    // terms (明清 社会经济史, 深度学习 编译器) or with only general words (金属有机框架 材料) they stay apart
    // rather than make one longer phrase. One-word terms compose (朝贡 体系 -> "tributary system").
    const own = chinese.filter((entry) => entry.kind === 'term');
    const phraseTerm = own.some((entry) => firstSense(entry.en).split(/\s+/).length >= 2);
    // General nouns that restate our term (材料, 体系, 结构) add nothing; other dictionary words, research
    // senses and nouns of an action do (肠上皮 屏障 损伤 -> "intestinal epithelium barrier injury").
    const plain = chinese.filter(
      (entry) =>
        entry.kind !== 'term' &&
        (entry.kind === 'verb' || RESEARCH_SENSES.has(entry.word) || !GENERIC_WORDS.has(entry.word)),
    );
    const onlyGeneral = plain.length === 0 && words.every((entry) => entry.kind !== 'latin');
    if (phraseTerm && (own.length >= 2 || onlyGeneral)) {
      wordByWord(words);
      return;
    }
    const english = [
      ...new Set(
        words.map((entry, index) => {
          const last = index === words.length - 1;
          return last ? firstSense(entry.en) : (MODIFIER_SENSES.get(entry.word) ?? firstSense(entry.en));
        }),
      ),
    ];
    // A word already said by the word before it (等离子体物理 + 物理 -> "plasma physics", not "... physics physics").
    const phrase = english
      .filter((en, index) => index === 0 || !containsWords(english[index - 1] as string, en))
      .join(' ');
    const specific = chinese.some((entry) => !GENERIC_WORDS.has(entry.word));
    if (specific && english.length >= 2 && phrase.split(' ').length <= MAX_PHRASE_WORDS) {
      occurrences.push({ zh, en: phrase, source: 'composed', ...marks, draft: true });
      // The glossed text keeps the words of the phrase as well as the phrase.
      for (const entry of chinese)
        occurrences.push({ zh: entry.word, en: entry.en, source: entry.source, ...marks, draft: false });
      return;
    }
    wordByWord(words);
  };

  const pieces = [...phraseWords(tokens)].flatMap((piece): PhrasePiece[] =>
    piece.kind === 'word' && !NON_RESEARCH_WORDS.has(piece.word) ? splitUnknownWord(piece) : [piece],
  );
  for (let p = 0; p < pieces.length; p += 1) {
    const piece = pieces[p] as PhrasePiece;
    if (piece.kind === 'break') {
      flush(true);
      continue;
    }
    const { word, start } = piece;
    if (piece.kind === 'latin') {
      item.push({ word, en: word, source: 'cedict', kind: 'latin' });
      continue;
    }
    if (ITEM_SEPARATORS.has(word)) {
      flush(true, !HEAD_FOLLOWS.has(word));
      continue;
    }
    if (institution.has(start) || NON_RESEARCH_WORDS.has(word)) {
      flush(true);
      continue;
    }
    const next = pieces[p + 1];
    if (word === '非' && next?.kind === 'word' && !NON_RESEARCH_WORDS.has(next.word)) {
      const negated = next.word.length >= 2 || CURATED_RESEARCH_TERMS.has(next.word) ? glossWord(next.word) : undefined;
      if (negated) {
        const sense = MODIFIER_SENSES.get(next.word) ?? firstSense(negated.en);
        item.push({ word: `非${next.word}`, en: `non-${sense}`, source: 'cedict', kind: 'noun' });
        p += 1;
        continue;
      }
    }
    // Our terms and words with an adjective sense (随机 "stochastic", tagged an adverb) stand in phrases.
    const own = CURATED_RESEARCH_TERMS.has(word) || FIELD_NAME_GLOSS.has(word) || MODIFIER_SENSES.has(word);
    if (!own && (word.length < 2 || isNonPhraseWord(word))) {
      // A lone character or a word that is no noun (之间, 尤其, 近年) ends the phrase; what follows a
      // lone character (损伤后, 类) is no item of its own.
      flush(word.length >= 2, word.length >= 2);
      continue;
    }
    const glossed = glossWord(word);
    const functionSense = glossed?.source === 'cedict' && FUNCTION_SENSE.test(glossed.en);
    // Senses that join alternatives or are verb phrases ("partial towards sth") are no noun of a phrase.
    const severalSenses =
      glossed?.source === 'cedict' && /\b(?:and|or|sth|sb|one's|oneself)\b|\//.test(firstSense(glossed.en));
    if (!glossed || functionSense || severalSenses) {
      // A phrase cut by a word we cannot gloss as one is incomplete: what came before is no whole item.
      flush(functionSense, functionSense);
      continue;
    }
    // A field keyword whose dictionary sense is a verb (治疗 "treat", 衍射 "diffract") is the noun of its action.
    const fieldNoun = glossed.source === 'field' && cedictVerbs().has(word) ? actionNoun(word, glossed.en) : undefined;
    if (fieldNoun) {
      item.push({ word, en: fieldNoun, source: glossed.source, kind: 'term' });
      continue;
    }
    // A dictionary verb (调控 "regulate", 解析 "analyze") starts no phrase; a research sense that is no
    // general verb (补贴 "subsidy", 分化 "differentiation") is a noun wherever it stands.
    const nounSense = RESEARCH_SENSES.has(word) && !GENERIC_WORDS.has(word);
    const verb = glossed.source !== 'curated' && !nounSense && cedictVerbs().has(word);
    if (!verb) {
      item.push({ word, en: glossed.en, source: glossed.source, kind: glossed.source === 'cedict' ? 'noun' : 'term' });
      continue;
    }
    const noun = actionNoun(word, glossed.en);
    // A whole item of its own (细胞增殖、分化与凋亡) is the noun of its action too.
    const alone = item.length === 0 && (!next || next.kind === 'break' || isItemEnd(next.word));
    if (noun && (item.length > 0 || alone)) {
      item.push({ word, en: noun, source: 'cedict', kind: 'verb' });
      flush(true);
    } else {
      // A verb that is no noun here cuts the phrase: the words before it are no whole item (深度 访谈).
      flush(item.length === 0);
      // The verb is counted for the glossed text; it starts no phrase.
      wordByWord([{ word, en: glossed.en, source: glossed.source, kind: 'verb' }]);
    }
  }
  flush(true);
}

/** A separator that ends an item standing on its own (、与和及或, not 的: 分化的机制 is about the mechanism). */
function isItemEnd(word: string): boolean {
  return ITEM_SEPARATORS.has(word) && !HEAD_FOLLOWS.has(word);
}

/**
 * A word jieba keeps whole that no dictionary glosses (问卷调查, 污水处理, 系统优化), as the words of ours or
 * of CC-CEDICT it is made of, longest first from the left (问卷 + 调查); as it is when it is no such run.
 */
function splitUnknownWord(piece: { word: string; start: number }): PhrasePiece[] {
  const { word } = piece;
  if (word.length < 4 || glossWord(word)) return [{ kind: 'word', ...piece }];
  const parts: string[] = [];
  let rest = word;
  while (rest.length > 0) {
    let length = rest.length === word.length ? rest.length - 1 : rest.length;
    while (length >= 2 && !glossWord(rest.slice(0, length))) length -= 1;
    if (length < 2) return [{ kind: 'word', ...piece }];
    parts.push(rest.slice(0, length));
    rest = rest.slice(length);
  }
  return parts.map((part) => ({ kind: 'word', word: part, start: piece.start }));
}

type PhrasePiece = { kind: 'word' | 'latin'; word: string; start: number } | { kind: 'break' };

/**
 * The pieces of a segmented clause for phrases: Chinese words (joined back into our terms, as
 * chineseWords), acronyms and names in Latin or Greek letters written against them (Wnt信号通路), and
 * breaks for everything else (spaces, punctuation, digits).
 */
function* phraseWords(tokens: string[]): Generator<PhrasePiece> {
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i] as string;
    // jieba reads a separator and 非 as one word (与非 "NAND"): 与非平衡 is 与 + 非平衡.
    if (token.length === 2 && token.endsWith('非') && ITEM_SEPARATORS.has(token[0] as string)) {
      yield { kind: 'word', word: token[0] as string, start: i };
      yield { kind: 'word', word: '非', start: i };
      i += 1;
      continue;
    }
    if (HAN.test(token)) {
      const end = ownTermEnd(tokens, i);
      yield { kind: 'word', word: tokens.slice(i, end).join(''), start: i };
      i = end;
      continue;
    }
    if (LATIN_WORD.test(token) && token.length <= 12) {
      // A piece of a longer word jieba split at an accented letter (Ré|nyi) is no acronym.
      const inWord =
        /[\p{Script=Latin}\p{Script=Greek}]$/u.test(tokens[i - 1] ?? '') ||
        /^[\p{Script=Latin}\p{Script=Greek}]/u.test(tokens[i + 1] ?? '');
      const touches = !inWord && (HAN.test(tokens[i - 1] ?? '') || HAN.test(tokens[i + 1] ?? ''));
      yield touches ? { kind: 'latin', word: token, start: i } : { kind: 'break' };
    } else yield { kind: 'break' };
    i += 1;
  }
}

/** The end of the longest run of segments from `i` that is one of our terms (or `i + 1`). */
function ownTermEnd(tokens: string[], i: number): number {
  for (let j = Math.min(tokens.length, i + MAX_JOIN); j > i + 1; j -= 1) {
    const run = tokens.slice(i, j);
    if (run.every((token) => HAN.test(token)) && isOwnTerm(run.join(''))) return j;
  }
  return i + 1;
}

/**
 * The Chinese words of a segmented text with the index of their first segment: adjacent segments are
 * joined back by the longest run that is one of our terms (jieba splits 图神经网络 into 图 + 神经网络).
 * Segments without a Chinese character are not words here.
 */
function* chineseWords(
  tokens: string[],
  joins: (joined: string) => boolean = isOwnTerm,
): Generator<{ word: string; start: number; end: number }> {
  let i = 0;
  while (i < tokens.length) {
    if (!HAN.test(tokens[i] as string)) {
      i += 1;
      continue;
    }
    let end = i + 1;
    for (let j = Math.min(tokens.length, i + MAX_JOIN); j > i + 1; j -= 1) {
      const run = tokens.slice(i, j);
      if (run.every((token) => HAN.test(token)) && joins(run.join(''))) {
        end = j;
        break;
      }
    }
    yield { word: tokens.slice(i, end).join(''), start: i, end };
    i = end;
  }
}

/** A glossed word's search alternatives; a dictionary sense's qualifier after a comma is not part of the phrase ("Tsinghua University, Beijing"). */
function searchWordOf(word: string, glossed: GlossedTerm): string[] {
  const gloss = (glossed.en.split(',')[0] as string).trim();
  return searchAlternatives(word, gloss, glossed.source === 'cedict');
}

/**
 * Bound morphemes of Chinese term formation: a suffix that makes a property, process, class or
 * measure of its stem (易发性 "susceptibility", 酸化 "acidification", 甲醇制烯烃 "methanol-to-olefins")
 * or a degree or count prefix. Inside a compound no dictionary has, the stem words carry the meaning
 * papers are found by; the morpheme's own sense (性 "nature", 制 "make") is what English writes as an
 * ending or a hyphen, so it is not searched.
 */
const BOUND_MORPHEMES = new Set(
  '性化率度型式类制法学论者物剂品体态量值感观期级用及与和之的易可非超多单双高低微纳全总'.split(''),
);

/**
 * The search words of a compound that no dictionary has as a whole (膝骨关节炎, 甲醇制烯烃): the fewest
 * glossed pieces it is made of, longer pieces first (膝 + 骨关节炎), each searched as a word of its own
 * (all must match, so the pieces keep the compound narrow); bound morphemes and boilerplate are left
 * out (a morpheme jieba cuts off alone, 甲醇/制/烯烃, gives no word). Null when a piece has no gloss at
 * all: then the compound cannot be searched in English without matching far more than it means.
 */
function composedSearchWords(word: string): string[][] | null {
  const cedict = loadCedict();
  // best[i]: the cheapest split of word[0, i); a piece of two or more characters costs 1, a single
  // character 1.5, so a dictionary word beats the characters that spell it.
  const best: ({ cost: number; pieces: string[] } | undefined)[] = [{ cost: 0, pieces: [] }];
  for (let end = 1; end <= word.length; end += 1) {
    for (let start = Math.max(0, end - MAX_JOIN); start < end; start += 1) {
      const before = best[start];
      const piece = word.slice(start, end);
      if (!before || (piece.length >= 2 ? !glossWord(piece) : !cedict.has(piece) && !CURATED_RESEARCH_TERMS.has(piece)))
        continue;
      const cost = before.cost + (piece.length >= 2 ? 1 : 1.5);
      if (!best[end] || cost < (best[end]?.cost ?? Number.POSITIVE_INFINITY))
        best[end] = { cost, pieces: [...before.pieces, piece] };
    }
  }
  const pieces = best[word.length]?.pieces;
  if (!pieces) return null;
  const words: string[][] = [];
  for (const piece of pieces) {
    if (NON_RESEARCH_WORDS.has(piece) || (piece.length === 1 && BOUND_MORPHEMES.has(piece))) continue;
    const glossed = glossWord(piece);
    if (!glossed) return null;
    words.push(searchWordOf(piece, glossed));
  }
  return words;
}

/**
 * The English a Chinese search term reaches: for each word of the term, the English phrases it is
 * searched as (its gloss first, then synonyms and spellings: searchAlternatives), of which a text must
 * contain one, for every word (图神经网络 -> [["graph neural network"]]; 肠道菌群代谢 -> [["gut
 * microbiota", "gut microbiome", ...], ["metabolism"]]). Function words and boilerplate (的, 与, 方法,
 * 研究) are left out; Latin letters or digits inside the term are kept as they are. A word no dictionary
 * has whole is searched as the glossed pieces it is made of (composedSearchWords). Null when the term
 * has no Chinese or when one of its words cannot be glossed even so: a partial translation would match
 * far more than the term means. Every search that takes Chinese (articles, news, keyword alerts) uses this.
 */
export function englishSearchPhrases(term: string): string[][] | null {
  if (!HAN.test(term)) return null;
  const tokens = jieba().cut(term, false);
  const words: string[][] = [];
  for (const token of tokens) {
    if (!HAN.test(token) && /[\p{L}\p{N}]/u.test(token)) words.push([token.trim()]);
  }
  // A typed keyword is one term, not running text: adjacent segments that spell a dictionary entry are
  // that entry (暗 + 能量 -> 暗能量, "dark energy"), which a text's segmentation would not trust.
  for (const { word } of chineseWords(tokens, (joined) => isOwnTerm(joined) || loadCedict().has(joined))) {
    if (NON_RESEARCH_WORDS.has(word)) continue;
    const glossed = word.length >= 2 || CURATED_RESEARCH_TERMS.has(word) ? glossWord(word) : undefined;
    if (glossed) {
      words.push(searchWordOf(word, glossed));
      continue;
    }
    const composed = composedSearchWords(word);
    if (!composed) return null;
    words.push(...composed);
  }
  const unique = words.filter(
    (alternatives, index) =>
      alternatives.length > 0 &&
      words.findIndex((other) => other.join('|').toLowerCase() === alternatives.join('|').toLowerCase()) === index,
  );
  return unique.some((alternatives) => alternatives.some((phrase) => /[A-Za-z]/.test(phrase))) ? unique : null;
}

/**
 * The English stored with a followed keyword (radar.user_keywords.english_alternatives), which its
 * alerts, reasons and counts match besides the keyword itself: englishSearchPhrases, so a keyword finds
 * what its search finds; [] for a Chinese keyword without a gloss (tried, none), null without Chinese.
 */
export function followedKeywordEnglish(name: string): string[][] | null {
  if (!HAN.test(name)) return null;
  return englishSearchPhrases(name) ?? [];
}

/** Chinese terms of the text glossed to English, in order of first occurrence, each once. */
export function glossChinese(text: string): { terms: GlossedTerm[] } {
  const seen = new Set<string>();
  const terms: GlossedTerm[] = [];
  for (const { zh, en, source } of glossOccurrences(text, false)) {
    // Only homepages get author English and composed phrases.
    if (seen.has(zh) || source === 'author' || source === 'composed') continue;
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
    lower: phrase.toLowerCase(),
    // Plural forms count ("graph neural networks"); the phrase must stand as whole words.
    pattern: new RegExp(
      `(?<![a-z0-9-])${phrase.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:s|es)?(?![a-z0-9-])`,
      'g',
    ),
  }));

/**
 * A reference line ("[1] H. Sun, et al. ... 2022", "郑晓燕. ...[J]. 教育研究, 2021(5).", "《明清江南市镇
 * 的赋役与商业》，上海古籍出版社，2015年"): the titles it cites mention many things beside the research
 * direction ("hydrogen evolution" is no "evolution"), and its venues and publishers none.
 */
const REFERENCE_LINE =
  /\bet al\b|\[[JMCD]\]|^\s*(?:\[\d+\]|\d+[.、]\s*[A-Z][a-z]+,?\s+[A-Z]\b)|《[^》]+》.*(?:19|20)\d{2}/;

function englishPhrases(text: string): { en: string; index: number }[] {
  let rest = text
    .split(/\r?\n/)
    .map((line) => (REFERENCE_LINE.test(line) ? ' '.repeat(line.length) : line))
    .join('\n')
    .replace(/[\u4e00-\u9fff]+/g, ' ')
    .toLowerCase();
  const found: { en: string; index: number }[] = [];
  if (!/[a-z]{3}/.test(rest)) return found;
  for (const { phrase, lower, pattern } of ENGLISH_RESEARCH_PHRASES) {
    if (!rest.includes(lower)) continue;
    for (const match of rest.matchAll(pattern)) {
      found.push({ en: phrase, index: match.index });
    }
    // Blank out what matched so "neural network" does not count again inside "graph neural network".
    rest = rest.replace(pattern, (match) => ' '.repeat(match.length));
  }
  return found.sort((a, b) => a.index - b.index);
}

/** Whether `inner` is whole words of `outer` ("history" of "socio-economic history"): the longer term says it. */
function containsWords(outer: string, inner: string): boolean {
  if (outer.length <= inner.length || !outer.toLowerCase().includes(inner.toLowerCase())) return false;
  const escaped = inner.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return outer.length > inner.length && new RegExp(`(?<![a-z0-9])${escaped}(?![a-z0-9])`).test(outer.toLowerCase());
}

const SOURCE_WEIGHT: Record<DraftSource, number> = { curated: 3, author: 3, composed: 3, field: 2, cedict: 1 };
/** Enough for every topic, method, organism and object a homepage states; more are its least salient. */
const MAX_DRAFT_TERMS = 20;
/** Bare field words are left out of a draft that has at least this many narrower terms. */
const MIN_NARROW_TERMS = 3;

/**
 * Research terms count for the draft when they are curated, name a field or a field-lexicon keyword, or
 * are longer CEDICT compounds (3+ characters, at most four English words); shorter CEDICT words are too
 * often everyday words ("发现" -> discover) to be stated as a research interest.
 */
function isResearchTerm(term: { zh: string; en: string; source: DraftSource }): boolean {
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
  const scores = new Map<string, { display: string; score: number; first: number; stated: number }>();
  let position = 0;
  /** `canonical`: our own spelling of the term (curated, field lexicon), preferred to the author's plural. */
  const add = (en: string, score: number, stated: boolean, canonical: boolean) => {
    const key = termKey(en);
    const entry = scores.get(key) ?? { display: en, score: 0, first: position, stated: Number.POSITIVE_INFINITY };
    if (canonical) entry.display = en;
    entry.score += score;
    if (stated) entry.stated = Math.min(entry.stated, position);
    scores.set(key, entry);
    position += 1;
  };
  const broadTerms = new Set<string>();
  for (const occurrence of glossOccurrences(text, true)) {
    if (!occurrence.draft) continue;
    if (occurrence.zh.length <= 2 && (occurrence.source === 'field' || FIELD_NAME_GLOSS.has(occurrence.zh))) {
      broadTerms.add(occurrence.en);
    }
    const canonical = occurrence.source === 'curated' || occurrence.source === 'field';
    add(occurrence.en, SOURCE_WEIGHT[occurrence.source] * (occurrence.cued ? 2 : 1), occurrence.stated, canonical);
  }
  for (const phrase of englishPhrases(text)) add(phrase.en, SOURCE_WEIGHT.curated, false, true);
  if (scores.size === 0) return null;
  // Which terms are kept: the stated ones, then the most salient; they are shown in the author's order.
  const ranked = [...scores.values()].sort((a, b) => {
    if (a.stated !== b.stated) return a.stated - b.stated || 0;
    return b.score - a.score || a.first - b.first;
  });
  const displays = ranked.map(({ display }) => display);
  const specific = ranked.filter(
    ({ display }) => !displays.some((other) => other !== display && containsWords(other, display)),
  );
  // A bare field word (化学 -> chemistry, 材料 -> material) says less than the terms beside it.
  const narrow = specific.filter(({ display }) => !broadTerms.has(display));
  const terms = (narrow.length >= MIN_NARROW_TERMS ? narrow : specific)
    .slice(0, MAX_DRAFT_TERMS)
    .sort((a, b) => a.stated - b.stated || a.first - b.first)
    .map(({ display }) => display);
  return { summary: `Research interests: ${terms.join(', ')}.`, terms };
}

/**
 * The research content of a Chinese homepage or description glossed to English, every occurrence in
 * order (term frequency is what an embedding weighs): what draftEnglishDirection reads (research
 * sections, no CV, contact, biography clauses or institution names), its phrases and their words,
 * before it keeps its terms. What a
 * profile keeps of the Chinese text beside its English draft (CrossLingualTexts.profile).
 */
export function glossResearchText(text: string): string {
  return glossOccurrences(text, true)
    .map((occurrence) => occurrence.en)
    .join(', ');
}

/**
 * Whether an English summary still states the research of a Chinese text: it names at least one term
 * of the text's draft. False for a summary rewritten for another direction, whose vector must not be
 * pulled back to the old text.
 */
export function summaryRestatesOriginal(summary: string, original: string): boolean {
  const draft = draftEnglishDirection(original);
  if (!draft) return false;
  const said = ` ${termKey(summary.replace(/[^\p{L}\p{N}]+/gu, ' '))} `;
  return draft.terms.some((term) => said.includes(` ${termKey(term.replace(/[^\p{L}\p{N}]+/gu, ' '))} `));
}

/** One key for a term's singular and plural ("large language models" = "large language model"). */
function termKey(en: string): string {
  return en
    .toLowerCase()
    .split(/\s+/)
    .map((word) => (word.length > 3 && /[^su]s$/.test(word) && !/(?:ss|is|us)$/.test(word) ? word.slice(0, -1) : word))
    .join(' ');
}

/**
 * The text with each Chinese word replaced by its English gloss where it has one, in place: words
 * with no gloss, boilerplate and function words are dropped, everything else (English terms written
 * in a Chinese text, numbers, punctuation) is kept. Each occurrence is glossed, so repeated terms stay
 * repeated (term frequency is what an embedding weighs). Used for the text a Chinese item or profile is
 * embedded from (embedding-text.ts).
 */
export function glossInline(text: string): string {
  const out: string[] = [];
  const tokens = jieba().cut(text, false);
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i] as string;
    if (!HAN.test(token)) {
      out.push(token);
      i += 1;
      continue;
    }
    let end = i + 1;
    for (let j = Math.min(tokens.length, i + MAX_JOIN); j > i + 1; j -= 1) {
      const run = tokens.slice(i, j);
      if (run.every((part) => HAN.test(part)) && isOwnTerm(run.join(''))) {
        end = j;
        break;
      }
    }
    const word = tokens.slice(i, end).join('');
    i = end;
    if (NON_RESEARCH_WORDS.has(word) || (word.length < 2 && !CURATED_RESEARCH_TERMS.has(word))) {
      out.push(' ');
      continue;
    }
    const glossed = glossWord(word);
    out.push(glossed ? ` ${glossed.en} ` : ' ');
  }
  return out
    .join('')
    .replace(/[\u3000-\u303f\uff00-\uffef]/g, (mark) => FULLWIDTH_PUNCTUATION[mark] ?? ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Chinese punctuation as its ASCII counterpart, so English tokenisers split sentences and clauses. */
const FULLWIDTH_PUNCTUATION: Record<string, string> = {
  '。': '. ',
  '，': ', ',
  '、': ', ',
  '；': '; ',
  '：': ': ',
  '（': ' (',
  '）': ') ',
  '！': '! ',
  '？': '? ',
};
