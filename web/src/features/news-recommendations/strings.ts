/** The page's heading, also drawn by the early view (app/early-view) before the page's code loads. */
export const NEWS_PAGE_HEADING = {
  pageTitle: '新闻推荐',
  pageSubtitle: '基于你的研究方向推荐相关学术新闻',
} as const;

/** Every text of the news page. */
export const NEWS_STRINGS = {
  ...NEWS_PAGE_HEADING,

  noSummary: {
    title: '尚未设置研究方向',
    body: '设置英文研究方向摘要后，我们会根据它为你推荐高校与科研机构的学术新闻。',
  },

  settings: {
    title: '推荐设置',
    open: '打开推荐设置',
    close: '收起推荐设置',
    /** True of every control: a tick, a slider let go (pointer or keys) and 恢复默认 apply at once. */
    hint: '勾选时间范围或松开滑块后，推荐列表立即更新；“刷新推荐”重新获取最新结果。',
    reset: '恢复默认',
    /** Changes need no button: it loads the list again (or applies a slider not yet let go). */
    apply: '刷新推荐',
  },

  includeRated: {
    label: '含已评价',
    hint: '列表中保留你点过 👍 的新闻',
  },

  more: {
    loadMore: '加载更多',
    noMore: '没有更多了',
  },

  result: {
    heading: (total: number) => `共 ${total} 条推荐新闻`,
    loading: '正在获取推荐新闻…',
    pagination: '新闻分页',
    pageItem: (type: string, page: number | null, selected: boolean) => {
      if (type === 'page') return selected ? `第 ${page} 页，当前页` : `第 ${page} 页`;
      if (type === 'previous') return '上一页';
      if (type === 'next') return '下一页';
      if (type === 'first') return '第一页';
      return '最后一页';
    },
  },

  empty: {
    title: '暂无推荐新闻',
    hint: '可以在推荐设置中放宽时间范围或降低相似度阈值。',
    noSummaryHint: '设置研究方向后，这里会显示根据它为你推荐的新闻。',
  },

  errors: {
    title: '获取推荐失败',
    retry: '重试',
    goSetUp: '去设置',
    /** Any 400 other than research_direction_not_set. */
    recommendationFailed: '推荐失败',
    /** The generic failure. */
    generic: '获取新闻推荐失败，请重试',
  },
} as const;
