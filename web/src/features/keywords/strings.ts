import { type AlertFrequency, KEYWORD_LIMITS } from '@radar/shared';

export const FREQUENCY_LABELS: Record<AlertFrequency, string> = { daily: '每天', weekly: '每周' };

/** Every text of the keyword screen, its messages included. */
export const KEYWORD_STRINGS = {
  pageTitle: '关键词',
  pageSubtitle: '关注感兴趣的关键词，一键检索相关论文，并按需接收新论文的邮件提醒',

  add: {
    title: '添加关键词',
    label: '关键词',
    placeholder: '例如：graph neural network、量子计算',
    submit: '添加',
    added: (name: string) => `已关注关键词“${name}”`,
    count: (count: number) => `已关注 ${count}/${KEYWORD_LIMITS.perUser} 个`,
  },

  suggestions: {
    title: '推荐关键词',
    description: '根据你的研究方向和相近论文推荐，点击即可关注',
    /** Only when the profile has no English research direction: completing it is then the way forward. */
    empty: '暂无推荐关键词。完善研究信息后，这里会根据你的研究方向推荐关键词。',
    goSetUp: '去完善',
    noPapers:
      '暂无推荐关键词：还没有收录可供分析的论文，论文来源可能仍在抓取中。收录论文后，这里会根据你的研究方向推荐关键词。',
    nothingFound: '暂无推荐关键词：与你研究方向相近的论文中暂时没有找到合适的关键词。',
    allFollowed: '推荐的关键词你都已关注。',
    /** The cause could not be learned (the count of papers did not load): none is claimed. */
    unexplained: '暂无推荐关键词。',
    addLabel: (name: string) => `关注推荐关键词“${name}”`,
    retry: '重试',
  },

  list: {
    title: '我的关键词',
    /**
     * The page is guarded, so its reader is logged in: the spec's anonymous wording (请登录并设置感兴趣的关键词)
     * would ask them to do what they did.
     */
    empty: '你还没有关注任何关键词',
    emptyHint: '在上方输入关键词，或点击推荐关键词即可关注。',
    retry: '重试',
    added: (relative: string) => `关注于${relative}`,
    search: (name: string) => `检索“${name}”相关论文`,
    settings: (name: string) => `“${name}”的提醒设置`,
    remove: (name: string) => `删除关键词“${name}”`,
    negativeTerms: (count: number) => `排除 ${count} 个词`,
  },

  alert: {
    off: '提醒已关闭',
    on: (frequency: AlertFrequency) => `${FREQUENCY_LABELS[frequency]}提醒`,
    lastAlerted: (relative: string) => `上次检查：${relative}`,
  },

  settings: {
    title: (name: string) => `提醒设置：${name}`,
    enabled: '有新论文时邮件提醒我',
    frequency: '提醒频率',
    negativeTerms: '排除词',
    negativeTermsPlaceholder: '输入后按回车添加',
    negativeTermsHelper: `包含排除词的论文不会出现在该关键词的提醒中（最多 ${KEYWORD_LIMITS.negativeTermsPerKeyword} 个）`,
    cancel: '取消',
    save: '保存',
    saved: '提醒设置已保存',
  },

  remove: {
    title: '删除关键词',
    body: (name: string) => `确定不再关注“${name}”吗？删除后也不会再收到它的邮件提醒。`,
    cancel: '取消',
    confirm: '删除',
    removed: (name: string) => `已删除关键词“${name}”`,
  },
} as const;
