import { followedAuthorReasonText, type JcrTier } from '@radar/shared';

/** The page's heading, also drawn by the early view (app/early-view) before the page's code loads. */
export const PAPERS_PAGE_HEADING = {
  pageTitle: '论文推荐',
  pageSubtitle: '基于你的研究方向推荐相关论文',
} as const;

/** Every text of the papers page. */
export const PAPERS_STRINGS = {
  ...PAPERS_PAGE_HEADING,

  noSummary: {
    title: '尚未设置研究方向',
    body: '设置英文研究方向摘要后，我们会根据它为你推荐最新的相关论文。',
  },

  settings: {
    title: '推荐设置',
    expand: '展开推荐设置',
    collapse: '收起推荐设置',
    jcr: '排除 JCR 分区',
    jcrHint: '排除某一分区时，比它更低的分区也一并排除；未收录分区的期刊（多为预印本）不受影响。',
    jcrTier: (tier: JcrTier) => `Q${tier}`,
    cancel: '取消',
    apply: '应用设置',
    applyAndRetry: '应用设置并重试',
  },

  chips: {
    label: '当前筛选条件',
    threshold: (percent: string) => `相似度 ≥ ${percent}`,
    excludedTier: (tier: JcrTier) => `排除 JCR Q${tier}`,
    date: (label: string) => `发表时间：${label}`,
  },

  includeRated: {
    label: '含已评价',
    hint: '列表中保留你点过 👍 的论文',
  },

  more: {
    loadMore: '加载更多',
    noMore: '没有更多了',
  },

  followed: {
    heading: '关注的作者',
    hint: '你关注的作者在所选时间范围内发表的新论文',
    reason: followedAuthorReasonText,
    expand: (hidden: number) => (hidden > 0 ? `还有 ${hidden} 篇，展开` : '展开'),
    collapse: '收起',
    namesakes: (count: number) => `另有 ${count} 篇同名作者的论文，展开`,
    hideNamesakes: '收起同名作者的论文',
  },

  result: {
    heading: (count: number) => `为你推荐 ${count} 篇论文`,
    filteredOut: (count: number) => `（已过滤 ${count} 篇）`,
    loading: '正在为你生成推荐…',
    retrying: (attempt: number) => `推荐服务暂时无响应，正在进行第 ${attempt} 次尝试…`,
  },

  empty: {
    none: '暂无推荐论文',
    noneHint: '设置研究方向后，这里会显示根据它为你推荐的论文。',
    notFound: '暂未找到合适的推荐论文',
    notFoundHint: '请尝试调整参数或降低相似度阈值',
  },

  errors: {
    goSetUp: '去设置',
    retry: '重试',
    directionHint: '请通过研究方向分析生成英文研究摘要',
    completeDirection: '请完善你的研究方向信息以获取个性化推荐',
    timeout: '推荐服务超时，请稍后重试',
    unavailable: '推荐服务暂时不可用，请稍后重试',
    serviceReturnedFailure: '推荐服务返回失败',
  },
} as const;
