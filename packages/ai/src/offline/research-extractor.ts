import { RESEARCH_FIELDS, type ResearchFieldId } from '@radar/shared';
import { draftEnglishDirection } from './chinese-gloss';
import { FIELD_LEXICON, FIELD_NEUTRAL_TERMS } from './field-lexicon';

/**
 * The offline research-profile extractor: deterministic rules, no model, no network. It finds the
 * email (also "name (at) domain" forms), name, position and institution in English and Chinese
 * homepage text, classifies the research fields with a keyword lexicon, and builds the English
 * summary from the English sentences about research. A Chinese (or mostly Chinese) page without
 * enough English research text gets an English draft instead, glossed term by term from its research
 * terms (chinese-gloss.ts), marked `researchSummaryOrigin: 'offline-gloss'` for the user to check.
 */

export interface OfflineExtraction {
  name: string;
  email: string;
  institution: string;
  position: string;
  researchFields: ResearchFieldId[];
  researchSummaryEn: string;
  /** Set when the summary is a term-by-term English draft glossed from Chinese text, to be checked by the user. */
  researchSummaryOrigin?: 'offline-gloss';
  /** User-facing remarks (Chinese) about what could not be extracted. */
  notices: string[];
}

export const SUMMARY_MIN_WORDS = 80;
export const SUMMARY_MAX_WORDS = 250;

export const NOTICES = {
  noEnglish:
    '文本中没有英文的研究描述，离线规则无法生成英文研究摘要（它不做翻译）。请让管理员配置 AI 模型（LLM），或粘贴一段英文的研究简介后重试。',
  shortEnglish: (words: number) =>
    `英文研究描述较短（${words} 个词），生成的摘要可能不完整；可以补充一段英文研究简介后重试，或让管理员配置 AI 模型（LLM）。`,
  noFields: '未能从文本中识别研究领域，请在个人页面手动选择。',
  glossDraft: '英文研究方向是内置规则根据中文主页中的研究术语逐词翻译生成的草稿，不是完整的译文，请检查并修改后保存。',
} as const;

// ---------------------------------------------------------------- email

const EMAIL = /[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const EMAIL_LABEL = /(?:e-?mail|mail|邮箱|电子邮件|电子信箱|邮件)\s*[:：]?\s*$/i;

/** Rewrites the usual anti-spam spellings of an address into a plain one. */
export function deobfuscateEmails(text: string): string {
  return (
    text
      .replace(/＠/g, '@')
      .replace(/\s*[([{<（【]\s*(?:at|AT|At)\s*[)\]}>）】]\s*/g, '@')
      .replace(/\s*[([{<（【]\s*(?:dot|DOT|Dot)\s*[)\]}>）】]\s*/g, '.')
      // "jane at example dot edu": only when the right-hand side has a "dot" or a dotted domain.
      .replace(
        /\b([A-Za-z0-9._%+-]+)\s+(?:at|AT)\s+([A-Za-z0-9-]+(?:\s*(?:\.|\s(?:dot|DOT)\s)\s*[A-Za-z0-9-]+)+)\b/g,
        (match, local: string, domain: string) => {
          const plain = domain.replace(/\s+(?:dot|DOT)\s+/g, '.').replace(/\s*\.\s*/g, '.');
          return /\.[A-Za-z]{2,}$/.test(plain) && plain.includes('.') ? `${local}@${plain}` : match;
        },
      )
      // "zhangwei#tsinghua.edu.cn" (Chinese sites: "replace # with @").
      .replace(/\b([A-Za-z0-9._%+-]+)#([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})\b/g, '$1@$2')
  );
}

export function findEmail(text: string): string {
  const plain = deobfuscateEmails(text);
  let first = '';
  for (const match of plain.matchAll(EMAIL)) {
    const address = match[0].replace(/\.+$/, '');
    const before = plain.slice(Math.max(0, (match.index ?? 0) - 20), match.index ?? 0);
    if (EMAIL_LABEL.test(before)) return address.toLowerCase();
    first ||= address.toLowerCase();
  }
  return first;
}

// ---------------------------------------------------------------- name

const CHINESE_SURNAMES = new Set(
  `王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫阎段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝官封谈匡鞠惠荆乐冀郁胥南班储原栗燕楚鄢劳谌奚皮粟冼蔺楼盘满闻位厉伊仝区郜海阚花权强帅屠豆朴盖练廉禹井祖漆巴丰支卿国狄平计索宣晋相初门云容敬来扈晁芮都普阙浦戈伏鹿薄邸雍辜羊母裘亓修邰赫杭况那宿鲜印逯隆茹诸战慕危玉银亢嵇公湛宾戎勾茅利於呼居揭干但尉冶斯元束檀衣信展阴昝智幸奉植衡富尧`,
);
const COMPOUND_SURNAMES = [
  '欧阳',
  '司马',
  '上官',
  '诸葛',
  '东方',
  '皇甫',
  '尉迟',
  '公孙',
  '慕容',
  '长孙',
  '宇文',
  '司徒',
  '令狐',
  '夏侯',
  '端木',
];

const CHINESE_NAME_STOP = /[教授老师博士学院大学系所研究主页简介个人实验室中心课题组团队首页]/;

function isChineseName(candidate: string): boolean {
  if (!/^[\u4e00-\u9fa5]{2,4}$/.test(candidate)) return false;
  const hasSurname =
    COMPOUND_SURNAMES.some((surname) => candidate.startsWith(surname) && candidate.length >= 3) ||
    CHINESE_SURNAMES.has(candidate[0] as string);
  // The given name must not contain words that make it a title or a place ("张教授", "主页").
  return hasSurname && !CHINESE_NAME_STOP.test(candidate.slice(1));
}

const NOT_NAME_WORDS = new Set(
  `university institute department school college faculty laboratory lab group center centre home homepage
  research professor associate assistant lecturer publications teaching contact about news people welcome
  page personal biography bio cv the of and in at for on to my our with curriculum vitae office email phone
  science sciences engineering computer technology national key state academy visiting distinguished chair`
    .split(/\s+/)
    .filter(Boolean),
);

function isEnglishName(candidate: string): boolean {
  const words = candidate.trim().split(/\s+/);
  if (words.length < 2 || words.length > 4) return false;
  return words.every(
    (word) =>
      /^(?:[A-Z][a-z'’-]+|[A-Z]\.|[A-Z][a-z]+-[A-Z][a-z]+)$/.test(word) && !NOT_NAME_WORDS.has(word.toLowerCase()),
  );
}

const stripDegree = (line: string) =>
  line
    .replace(/,?\s*\(?(?:Ph\.?\s?D\.?|M\.?D\.?|FRS|FIEEE|IEEE Fellow)\)?\.?$/i, '')
    .replace(/^(?:Prof\.?|Professor|Dr\.?)\s+/, '')
    .trim();

export function findName(text: string): string {
  const labelled = /(?:^|\n)\s*(?:name|姓\s*名)\s*[:：]\s*([^\n,，;；|]{2,40})/i.exec(text);
  if (labelled?.[1]) {
    const value = stripDegree(labelled[1].trim());
    if (isChineseName(value.replace(/\s+/g, '')) || isEnglishName(value)) return value;
  }

  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

  // Chinese: "张伟，男，教授" or a heading "张伟 教授" / "张伟的个人主页".
  const chineseWithTitle =
    /([\u4e00-\u9fa5]{2,4})\s*[，,、\s]?\s*(?:[男女]\s*[，,、]\s*)?(?:博士\s*[，,、]?\s*)?(?:中国科学院院士|教授|副教授|助理教授|研究员|副研究员|讲师|博士生导师|特聘|长聘|准聘)/g;
  for (const match of text.matchAll(chineseWithTitle)) {
    const candidate = match[1] ?? '';
    for (const start of [0, 1, 2]) {
      const sub = candidate.slice(start);
      if (sub.length >= 2 && isChineseName(sub)) return sub;
    }
  }
  const nameThenDetails =
    /(?:^|\n)\s*([\u4e00-\u9fa5]{2,4})\s*[，,、]\s*(?:[男女]|[^\n]{0,30}(?:大学|学院|研究所|研究院|教授|研究员|讲师))/g;
  for (const match of text.matchAll(nameThenDetails)) {
    const candidate = match[1] ?? '';
    if (isChineseName(candidate)) return candidate;
  }
  for (const line of lines.slice(0, 5)) {
    const heading = /^([\u4e00-\u9fa5]{2,4})(?:\s*(?:的个人主页|个人主页|个人简介|简介|主页|老师|教授|博士))?$/.exec(
      line,
    );
    if (heading?.[1] && isChineseName(heading[1])) return heading[1];
  }

  // Bilingual headings give both spellings: "Zhang Lei 张磊", "张磊 Zhang Lei", "Prof. Zhang Lei 张磊".
  // The hanzi form is kept: it is how the person writes the name in the product's language.
  const pinyin = "[A-Z][a-z]+(?:[-'’]?[a-z]+)?";
  const bilingual = new RegExp(
    `(?:^|\\n)[ \\t]*(?:(?:Prof\\.?|Professor|Dr\\.?)[ \\t]+)?(?:(?:${pinyin})(?:[ \\t]+${pinyin}){1,2}[ \\t]*[（(]?([\\u4e00-\\u9fa5]{2,4})[）)]?|([\\u4e00-\\u9fa5]{2,4})[ \\t]*[（(]?(?:${pinyin})(?:[ \\t]+${pinyin}){1,2}[）)]?)[ \\t]*(?=[\\n,，|]|$)`,
    'g',
  );
  for (const match of text.matchAll(bilingual)) {
    const candidate = match[1] ?? match[2] ?? '';
    if (isChineseName(candidate)) return candidate;
  }

  // English: "Prof. Jane Smith", "Dr Jane Smith".
  // A name never continues on the next line ("Prof. Zhang Lei\nPeking University").
  const titled =
    /\b(?:Prof\.?|Professor|Dr\.?)[ \t]+((?:[A-Z][a-z'’-]+|[A-Z]\.)(?:[ \t]+(?:[A-Z][a-z'’-]+|[A-Z]\.)){1,3})/g;
  for (const match of text.matchAll(titled)) {
    const candidate = (match[1] ?? '').trim();
    for (let words = candidate.split(/\s+/); words.length >= 2; words = words.slice(0, -1)) {
      if (isEnglishName(words.join(' '))) return words.join(' ');
    }
  }
  // "Jane Smith is an Associate Professor ...", "Jane Smith received ..."
  const subject =
    /(?:^|[.\n]\s*)((?:[A-Z][a-z'’-]+|[A-Z]\.)(?:\s+(?:[A-Z][a-z'’-]+|[A-Z]\.)){1,3})\s+(?:is|was|joined|received|leads|directs|holds|serves)\b/g;
  for (const match of text.matchAll(subject)) {
    const candidate = (match[1] ?? '').trim();
    if (isEnglishName(candidate)) return candidate;
  }
  // A heading line that is just a name ("Jane Smith, Ph.D.").
  for (const line of lines.slice(0, 5)) {
    const candidate = stripDegree(line.replace(/[|·•].*$/, '').trim());
    if (isEnglishName(candidate)) return candidate;
  }
  const myName = /\b(?:my name is|I am|I'm)\s+((?:[A-Z][a-z'’-]+)(?:\s+[A-Z][a-z'’-]+){1,2})/.exec(text);
  if (myName?.[1] && isEnglishName(myName[1])) return myName[1];
  return '';
}

// ---------------------------------------------------------------- position

const ENGLISH_POSITIONS = [
  'Distinguished Professor',
  'Chair Professor',
  'University Professor',
  'Full Professor',
  'Associate Research Professor',
  'Research Associate Professor',
  'Associate Professor',
  'Assistant Professor',
  'Adjunct Professor',
  'Research Professor',
  'Professor Emeritus',
  'Emeritus Professor',
  'Professor',
  'Senior Lecturer',
  'Lecturer',
  'Principal Investigator',
  'Principal Research Scientist',
  'Senior Research Scientist',
  'Research Scientist',
  'Staff Scientist',
  'Senior Scientist',
  'Postdoctoral Research Fellow',
  'Postdoctoral Researcher',
  'Postdoctoral Fellow',
  'Research Fellow',
  'Research Associate',
  'Ph.D. Candidate',
  'PhD Candidate',
  'Ph.D. Student',
  'PhD Student',
  'Doctoral Candidate',
  'Doctoral Student',
  'Senior Researcher',
];
/** Single generic words count only capitalised (as a title), not as ordinary words in a sentence. */
const ENGLISH_TITLE_CASE_POSITIONS = ['Reader', 'Researcher', 'Scientist'];

const CHINESE_RANKS = [
  '中国科学院院士',
  '中国工程院院士',
  '讲席教授',
  '特聘教授',
  '长聘教授',
  '长聘副教授',
  '准聘副教授',
  '准聘助理教授',
  '助理教授',
  '副教授',
  '教授',
  '特聘研究员',
  '助理研究员',
  '副研究员',
  '研究员',
  '高级工程师',
  '讲师',
  '博士后',
  '博士研究生',
  '硕士研究生',
];
const CHINESE_SUPERVISOR_ROLES: [RegExp, string][] = [
  [/博士生导师|博导/, '博士生导师'],
  [/硕士生导师|硕导/, '硕士生导师'],
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function findPosition(text: string): string {
  type Hit = { index: number; value: string; chinese: boolean };
  const hits: Hit[] = [];
  const english = new RegExp(
    `\\b(${ENGLISH_POSITIONS.map(escapeRegExp).join('|')})\\b|\\b(${ENGLISH_TITLE_CASE_POSITIONS.join('|')})\\b`,
    'g',
  );
  // Case-insensitive for the multi-word titles and "professor"; exact case for generic single words.
  const lower = text.toLowerCase();
  for (const title of ENGLISH_POSITIONS) {
    const pattern = new RegExp(`\\b${escapeRegExp(title.toLowerCase())}\\b`, 'g');
    for (const match of lower.matchAll(pattern)) hits.push({ index: match.index ?? 0, value: title, chinese: false });
  }
  for (const match of text.matchAll(english)) {
    if (match[2]) hits.push({ index: match.index ?? 0, value: match[2], chinese: false });
  }
  let masked = text;
  for (const rank of CHINESE_RANKS) {
    for (const match of masked.matchAll(new RegExp(escapeRegExp(rank), 'g'))) {
      hits.push({ index: match.index ?? 0, value: rank, chinese: true });
    }
    masked = masked.replaceAll(rank, '\u0000'.repeat(rank.length));
  }
  if (hits.length === 0) {
    const roles = CHINESE_SUPERVISOR_ROLES.filter(([pattern]) => pattern.test(text)).map(([, role]) => role);
    return roles.join('、');
  }
  // The earliest title wins; at one position the longest ("Associate Professor" over "Professor").
  hits.sort((a, b) => a.index - b.index || b.value.length - a.value.length);
  const first = hits[0] as Hit;
  if (!first.chinese) return first.value;
  const roles = CHINESE_SUPERVISOR_ROLES.filter(([pattern]) => pattern.test(text)).map(([, role]) => role);
  return [first.value, ...roles.filter((role) => role !== first.value)].join('、');
}

// ---------------------------------------------------------------- institution

interface Candidate {
  value: string;
  index: number;
  score: number;
}

const ORG_LABEL = /(?:affiliation|institution|organi[sz]ation|employer|单位|工作单位|所在单位|任职单位)\s*[:：]?\s*$/i;
const EDUCATION_CONTEXT =
  /(?:毕业|学位|获得|获|本科|硕士|学士|留学|访问学者|访学|ph\.?\s?d\.?|doctorate|degree|b\.?s\.?|m\.?s\.?|b\.?sc|m\.?sc|graduated|received|studied|alumn|visiting|postdoc(?:toral)? (?:at|with))[^.。,，;；\n]{0,40}$/i;
const FORMER_CONTEXT =
  /(?:\bwas an?\b|\bwere\b|previously|formerly|\bbefore\b|曾在|曾任|曾经|此前|先后)[^.。,，;；\n]{0,50}$/i;
const EMPLOYMENT_CONTEXT =
  /(?:现任|现为|任职于|就职于|工作于|供职于|任|担任|is an?|is the|works? at|at|joined|现在)\s*$/i;

const ENGLISH_ORG_STOP_PREFIX =
  /^(?:(?:The|At|In|From|Of|And|Professor|Prof\.?|Dr\.?|Associate|Assistant|Department|Dept\.?|School|Faculty|Lab|Laboratory|Group|Center|Centre|Computer|Science|Engineering|Currently|I|He|She|We|My|Our|Visiting|Joined|Since|Before)\s+)+/;
const ENGLISH_TRAILING_PLACE_STOP =
  /^(?:Department|School|Faculty|College|Institute|China|USA|UK|Canada|Australia|Germany|Japan|Singapore|France|United|Kingdom|Hong|Email|Phone|Tel|Room|Office|Where|Since|Before|After|He|She|I|We|My|Our|His|Her)$/;

function englishOrganisations(text: string): Candidate[] {
  const found: Candidate[] = [];
  const word = "[A-Z][\\w'’&.-]*";
  // Spaces only: an organisation name never continues on the next line.
  const patterns = [
    // University of California, Berkeley / The University of Tokyo
    new RegExp(
      `\\b(?:The[ \\t]+)?University[ \\t]+of[ \\t]+${word}(?:[ \\t]+(?:${word}|and|&))*(?:,[ \\t]*([A-Z][a-z]+)(?![a-z]|[ \\t]+[A-Z]))?`,
      'g',
    ),
    // Stanford University, Massachusetts Institute of Technology, Chinese Academy of Sciences
    new RegExp(
      `\\b(?:${word}[ \\t]+){1,5}(?:University|Institute[ \\t]+of[ \\t]+Technology|Polytechnic(?:[ \\t]+University)?|College(?:[ \\t]+London)?|Academy[ \\t]+of[ \\t]+(?:Sciences|Engineering)|Research[ \\t]+Institute|National[ \\t]+Laborator(?:y|ies))\\b`,
      'g',
    ),
    // Max Planck Institute for Informatics, Institute of Computing Technology
    new RegExp(`\\b(?:${word}[ \\t]+){0,3}Institute[ \\t]+(?:of|for)[ \\t]+${word}(?:[ \\t]+(?:${word}|and|&))*`, 'g'),
  ];
  for (const pattern of patterns) {
    for (const match of text.matchAll(pattern)) {
      let value = match[0];
      const place = match[1];
      if (place && ENGLISH_TRAILING_PLACE_STOP.test(place.split(/\s+/)[0] ?? '')) {
        value = value.slice(0, value.lastIndexOf(','));
      }
      const stripped = value.replace(ENGLISH_ORG_STOP_PREFIX, '').replace(/[\s,.]+$/, '');
      if (!/\b(?:University|Institute|College|Academy|Laborator|Polytechnic)/.test(stripped)) continue;
      if (stripped.split(/\s+/).length < 2) continue;
      found.push({ value: stripped, index: (match.index ?? 0) + (value.length - value.trimStart().length), score: 0 });
    }
  }
  return found;
}

const CHINESE_ORG = /(?:大学|科学院|工程院|研究院|研究所|学院|研究中心|实验室)/g;
const CHINESE_SUB_UNIT = /(?:学院|系|研究所|研究院|实验室|研究中心|中心|学部|研究室|课题组)/g;
const CHINESE_ORG_PREFIX_VERBS =
  /^.*(?:毕业于|任职于|就职于|工作于|供职于|来自|现任|现为|目前在|目前|担任|加入|曾在|曾任|先后在|于|在|任)/;
const CHINESE_BAD_PREFIX = /^(?:该|本|各|多所|国内外|国内|国外|知名|著名|一流|世界|海外|其)/;
const CHINESE_POSITION_TAIL =
  /(?:讲席|特聘|长聘|准聘|助理|副)?(?:教授|研究员|讲师|院士|博士后|工程师|主任|院长|所长|副院长|博士生导师|硕士生导师)$/;

/** Verbs of current employment just before an organisation's name (现任某大学教授, 就职于某研究所). */
const CHINESE_EMPLOYMENT_VERB = /(?:现任|现为|任职于|就职于|工作于|供职于|担任|兼任|加入|目前在|任)$/;
/** A second post (兼任某中心主任) names no employer. */
const SECOND_POST = /兼任\s*$/;
/** Characters a name never holds before its 大学/研究所/实验室: function words of a sentence (结果与费米实验室). */
const CHINESE_SENTENCE_CHARACTERS = /[与和及的在了对把被将从向我们这那其该或并以年]/;
/** A title right after the name (某大学物理学院教授). */
const CHINESE_TITLE_AFTER =
  /^(?:讲席|特聘|长聘|准聘|青年|助理|副)?(?:教授|研究员|讲师|院士|博士后|工程师|主任|院长|所长|博士生导师|硕士生导师)/;

/**
 * Whether a Chinese organisation's name stands where a homepage states an affiliation: after a label
 * (单位：), after a verb of employment (现任, 就职于), at the start of a line or of the bio line (张伟，
 * 某大学…), or before a title (…学院教授). Elsewhere a name is a mention (a degree, a partner, a
 * sentence about the lab) and no affiliation.
 */
function statesAffiliation(text: string, index: number, value: string, verb: string): boolean {
  if (CHINESE_EMPLOYMENT_VERB.test(verb)) return true;
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  const before = text.slice(lineStart, index);
  if (ORG_LABEL.test(before.slice(-25))) return true;
  if (/^\s*(?:[\u4e00-\u9fa5]{2,4}\s*[，,、|｜]?\s*(?:[男女]\s*[，,、]\s*)?)?$/.test(before)) return true;
  return CHINESE_TITLE_AFTER.test(text.slice(index + value.length));
}

function chineseOrganisations(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const run of text.matchAll(/[\u4e00-\u9fa5]{3,}/g)) {
    let value = run[0];
    let offset = run.index ?? 0;
    const firstOrg = value.search(CHINESE_ORG);
    if (firstOrg < 2) continue;
    // Cut leading verbs ("现任", "毕业于") that precede the organisation name within the run.
    const head = value.slice(0, firstOrg);
    const verb = CHINESE_ORG_PREFIX_VERBS.exec(head);
    if (verb) {
      value = value.slice(verb[0].length);
      offset += verb[0].length;
    }
    if (CHINESE_SENTENCE_CHARACTERS.test(value.slice(0, value.search(CHINESE_ORG)))) continue;
    // Extend to the last sub-unit (department, lab) and drop a trailing title ("...系教授").
    let end = 0;
    for (const unit of value.matchAll(new RegExp(`${CHINESE_ORG.source}|${CHINESE_SUB_UNIT.source}`, 'g'))) {
      end = (unit.index ?? 0) + unit[0].length;
    }
    // "中国科学院院士" is a title, not an affiliation.
    if (/^(?:中国)?(?:科学院|工程院)院士/.test(value.slice(value.search(CHINESE_ORG) - 2))) continue;
    value = value.slice(0, end).replace(CHINESE_POSITION_TAIL, '');
    if (value.length < 4 || CHINESE_BAD_PREFIX.test(value)) continue;
    if (value.search(CHINESE_ORG) < 2) continue;
    if (!statesAffiliation(text, offset, value, verb?.[0] ?? '')) continue;
    found.push({ value, index: offset, score: 0 });
  }
  return found;
}

export function findInstitution(text: string): string {
  const candidates = [...englishOrganisations(text), ...chineseOrganisations(text)];
  if (candidates.length === 0) return '';
  const early = Math.max(400, Math.floor(text.length * 0.2));
  for (const candidate of candidates) {
    const before = text.slice(Math.max(0, candidate.index - 60), candidate.index);
    if (ORG_LABEL.test(before.slice(-25))) candidate.score += 3;
    if (EDUCATION_CONTEXT.test(before)) candidate.score -= 3;
    else if (FORMER_CONTEXT.test(before)) candidate.score -= 1;
    else if (SECOND_POST.test(before)) candidate.score -= 1;
    else if (EMPLOYMENT_CONTEXT.test(before.slice(-12))) candidate.score += 1;
    if (candidate.index < early) candidate.score += 1;
    // Mentions of the same organisation count for it, and for a more specific form of it
    // ("清华大学计算机系" gets the mentions of "清华大学").
    const related = candidates.filter((other) => other !== candidate && candidate.value.startsWith(other.value)).length;
    candidate.score += Math.min(related, 2) * 0.5;
    if (candidates.some((other) => other.value !== candidate.value && candidate.value.startsWith(other.value))) {
      candidate.score += 0.25;
    }
    // A university or academy names the employer better than an institute inside it.
    if (/University|Academy|大学|科学院|工程院/.test(candidate.value)) candidate.score += 0.5;
  }
  candidates.sort((a, b) => b.score - a.score || a.index - b.index);
  return (candidates[0] as Candidate).value;
}

// ---------------------------------------------------------------- research fields

type Keyword = { term: string; field: ResearchFieldId; weight: number; chinese: boolean };

const KEYWORDS: Keyword[] = (Object.entries(FIELD_LEXICON) as [ResearchFieldId, { strong: string[]; weak: string[] }][])
  .flatMap(([field, { strong, weak }]) => [
    ...strong.map((term) => ({ term, field, weight: 2, chinese: /[\u4e00-\u9fa5]/.test(term) })),
    ...weak.map((term) => ({ term, field, weight: 1, chinese: /[\u4e00-\u9fa5]/.test(term) })),
  ])
  // Longest first, so "软件工程" is counted for computer science before "工程" can count it for engineering.
  .sort((a, b) => b.term.length - a.term.length);

type FieldEvidence = { score: number; strongHits: number };

function weighResearchFields(text: string): Map<ResearchFieldId, FieldEvidence> {
  let masked = ` ${text.toLowerCase().replace(/\s+/g, ' ')} `;
  for (const term of FIELD_NEUTRAL_TERMS) masked = masked.replaceAll(term, ' '.repeat(term.length));
  const evidence = new Map<ResearchFieldId, FieldEvidence>();
  for (const keyword of KEYWORDS) {
    const pattern = keyword.chinese
      ? new RegExp(escapeRegExp(keyword.term), 'g')
      : new RegExp(`(?<![a-z0-9-])${escapeRegExp(keyword.term)}(?:s|es)?(?![a-z0-9-])`, 'g');
    let count = 0;
    masked = masked.replace(pattern, (match) => {
      count++;
      return ' '.repeat(match.length);
    });
    if (count === 0) continue;
    const current = evidence.get(keyword.field) ?? { score: 0, strongHits: 0 };
    current.score += keyword.weight * Math.min(count, 3);
    if (keyword.weight === 2) current.strongHits += count;
    evidence.set(keyword.field, current);
  }
  return evidence;
}

function scoreResearchFields(text: string): Map<ResearchFieldId, number> {
  return new Map([...weighResearchFields(text)].map(([field, { score }]) => [field, score]));
}

/**
 * Up to three fields, each only on evidence: a field needs at least one term that names it (weak,
 * shared topic words alone never set a field) and a score of at least 4 and 40% of the best. When no
 * field reaches 4, a single named field counts only if it leads alone; a tie or nothing gives no field,
 * and the user picks one.
 */
export function classifyResearchFields(text: string): ResearchFieldId[] {
  const ranked = [...weighResearchFields(text).entries()]
    .filter(([, { strongHits }]) => strongHits > 0)
    .map(([field, { score }]) => [field, score] as const)
    .sort((a, b) => b[1] - a[1]);
  const best = ranked[0]?.[1] ?? 0;
  if (best < 2) return [];
  let ids: ResearchFieldId[] = ranked
    .filter(([, score]) => score >= 4 && score >= best * 0.4)
    .slice(0, 3)
    .map(([field]) => field);
  if (ids.length === 0) {
    const runnerUp = ranked[1]?.[1] ?? 0;
    ids = best > runnerUp ? [ranked[0]?.[0] as ResearchFieldId] : [];
  }
  // Keep the product's field order for a stable display.
  return RESEARCH_FIELDS.map((field) => field.id).filter((id) => ids.includes(id));
}

// ---------------------------------------------------------------- English summary

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/g;
const HAS_CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const RESEARCH_CUE =
  /\b(?:research|interests?|focus(?:es|ed|ing)?|stud(?:y|ies|ying)|investigat\w*|develop\w*|explor\w*|work(?:s|ing)? on|aim\w*|lab(?:oratory)?|group|problems?|theor\w*|methods?|models?|applications?|analy\w*|understand\w*|design\w*|algorithms?|techniques?|systems?|mechanisms?|propos\w*)\b/i;
const BIOGRAPHY_CUE =
  /\b(?:received|graduated|joined|was born|award(?:ed|s)?|recipient|fellowship|fellow of|served as|prior to|before (?:joining|moving)|(?:I|he|she) was an?|ph\.?\s?d\.? (?:from|in|degree)|b\.?s\.? (?:from|in)|m\.?s\.? (?:from|in)|editor|member of|is an? (?:\w+ ){0,3}(?:professor|lecturer|scientist|fellow|researcher|reader)\b)/i;
/** A biography sentence still counts when it says what the research is about. */
const RESEARCH_TOPIC =
  /\b(?:(?:my|our|his|her|their) research|research (?:focuses|interests?|areas?|topics?|program))\b/i;
const CITATION =
  /\bet al\b|\bIn Proc|\bProceedings\b|\bvol\.|\bpp\.|\bdoi\b|arXiv:|\bIEEE Trans|\bACM Trans|\bJournal of\b.*\b(?:19|20)\d{2}\b|^\s*\[\d+\]|^\s*\d+\.\s+[A-Z][a-z]+,\s+[A-Z]\./;
/**
 * A reference line: two or more authors written with initials ("Li X., Chen W." or "X. Li") and a
 * year, or a line that opens with such an author. Checked on whole lines, before the line is cut
 * into sentences at the initials' full stops.
 */
const CITATION_AUTHOR =
  /(?:\b[A-Z][a-z'’-]+,?\s+(?:[A-Z]\.\s?){1,3}(?=[,;.\s]|$)|\b(?:[A-Z]\.\s?){1,3}[A-Z][a-z'’-]+\b)/g;
const CITATION_YEAR = /\b(?:19|20)\d{2}[a-z]?\b/;
function isCitationLine(line: string): boolean {
  if (!CITATION_YEAR.test(line)) return false;
  const authors = line.match(CITATION_AUTHOR) ?? [];
  return authors.length >= 2 || new RegExp(`^\\s*(?:\\[\\d+\\]\\s*|\\d+\\.\\s+)?${CITATION_AUTHOR.source}`).test(line);
}
/** Recruiting notices say who may apply, not what the research is. */
const RECRUITING =
  /\b(?:recruit(?:ing|s|ment)?|hiring|we are (?:looking|seeking) for|(?:welcome|invited|encouraged) to apply|apply (?:now|to join)|send (?:your|a|their) (?:cv|resume|application)|(?:open|available|vacant) (?:phd |postdoc(?:toral)? |graduate )?positions?|positions? (?:are )?(?:available|open)|prospective (?:students|applicants)|join (?:us|our (?:lab|group|team)))\b|招收|招聘|招生|诚聘/i;
const NOISE =
  /@|https?:\/\/|www\.|copyright|all rights reserved|\bclick\b|\bphone\b|\btel\b|\bfax\b|\boffice\b|\broom\b/i;

/** Menus ("Home | Research | Contact") and headings ("School of Biological Sciences") are not prose. */
function isProse(sentence: string): boolean {
  if ((sentence.match(/[|•·»]/g) ?? []).length >= 2) return false;
  const words = sentence.split(/\s+/).filter((word) => /^[A-Za-z]/.test(word));
  const lowerCase = words.filter((word) => /^[a-z]/.test(word)).length;
  return words.length > 0 && lowerCase / words.length >= 0.4;
}

const wordCount = (sentence: string) => sentence.split(/\s+/).filter((word) => /[A-Za-z]/.test(word)).length;

function splitSentences(text: string): string[] {
  return text
    .split(/\r?\n+/)
    .filter((line) => !isCitationLine(line) && !RECRUITING.test(line))
    .flatMap((line) => line.split(/(?<=[.!?;])\s+(?=[A-Z("“])/))
    .map((sentence) => sentence.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

function isEnglishSentence(sentence: string): boolean {
  const letters = (sentence.match(/[A-Za-z]/g) ?? []).length;
  const cjk = (sentence.match(CJK) ?? []).length;
  return letters > 0 && cjk <= letters * 0.05 && wordCount(sentence) >= 6;
}

export function buildEnglishSummary(text: string): { summary: string; englishResearchWords: number } {
  const sentences = splitSentences(text).filter(
    (sentence) =>
      isEnglishSentence(sentence) &&
      isProse(sentence) &&
      !CITATION.test(sentence) &&
      !RECRUITING.test(sentence) &&
      !NOISE.test(sentence),
  );
  const research = sentences.filter((sentence) => {
    const aboutResearch = RESEARCH_CUE.test(sentence) || scoreResearchFields(sentence).size > 0;
    return aboutResearch && !(BIOGRAPHY_CUE.test(sentence) && !RESEARCH_TOPIC.test(sentence));
  });
  const chosen: string[] = [];
  let words = 0;
  for (const sentence of research) {
    const count = wordCount(sentence);
    if (words + count > SUMMARY_MAX_WORDS) {
      if (words >= SUMMARY_MIN_WORDS) break;
      continue;
    }
    chosen.push(/[.!?]$/.test(sentence) ? sentence : `${sentence.replace(/[;,:]$/, '')}.`);
    words += count;
  }
  return { summary: chosen.join(' '), englishResearchWords: words };
}

// ---------------------------------------------------------------- all together

/** More Chinese characters than Latin letters: a Chinese page, whatever English it quotes. */
function isMostlyChinese(text: string): boolean {
  return (text.match(CJK) ?? []).length > (text.match(/[A-Za-z]/g) ?? []).length;
}

/**
 * The English summary: the page's own English research sentences; for a Chinese (or mostly Chinese)
 * page with fewer than SUMMARY_MIN_WORDS of them, the glossed draft first, then those sentences. An
 * English page without research sentences gets no draft.
 */
function englishSummary(text: string): {
  summary: string;
  origin?: 'offline-gloss';
  notice?: string;
} {
  const { summary, englishResearchWords } = buildEnglishSummary(text);
  if (summary && englishResearchWords >= SUMMARY_MIN_WORDS) return { summary };
  // The glossed draft is a Chinese page's: an English text without research sentences (a list of
  // paper titles) is better said by its own words than by the few research terms it names.
  if ((!summary && HAS_CJK.test(text)) || isMostlyChinese(text)) {
    const draft = draftEnglishDirection(text);
    if (draft) {
      return {
        summary: [draft.summary, summary].filter(Boolean).join(' '),
        origin: 'offline-gloss',
        notice: NOTICES.glossDraft,
      };
    }
  }
  return summary
    ? { summary, notice: NOTICES.shortEnglish(englishResearchWords) }
    : { summary, notice: NOTICES.noEnglish };
}

export function extractResearchProfileOffline(text: string): OfflineExtraction {
  const notices: string[] = [];
  const { summary, origin, notice } = englishSummary(text);
  if (notice) notices.push(notice);
  const researchFields = classifyResearchFields(text);
  if (researchFields.length === 0) notices.push(NOTICES.noFields);
  return {
    name: findName(text),
    email: findEmail(text),
    institution: findInstitution(text),
    position: findPosition(text),
    researchFields,
    researchSummaryEn: summary,
    ...(origin ? { researchSummaryOrigin: origin } : {}),
    notices,
  };
}
