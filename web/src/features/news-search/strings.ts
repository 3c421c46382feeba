import type { NewsSearchType } from '@radar/shared';

/** Every text of the news search screen. */
export const NEWS_SEARCH_STRINGS = {
  pageTitle: '新闻检索',
  pageSubtitle: '按关键词或语义检索学术新闻，可按发布机构和日期筛选',
  form: {
    label: '新闻检索条件',
    query: '关键词',
    queryPlaceholder: '例如：量子、人工智能 论坛',
    searchType: '检索方式',
    searchTypes: { keyword: '关键词匹配', semantic: '语义检索' } satisfies Record<NewsSearchType, string>,
    searchTypeHints: {
      keyword: '标题或正文需包含全部关键词',
      semantic: '按含义查找最相近的新闻',
    } satisfies Record<NewsSearchType, string>,
    institute: '发布机构',
    institutePlaceholder: '机构名称的一部分，可不填',
    dateFrom: '开始日期',
    dateTo: '结束日期',
    submit: '检索',
    clear: '清空条件',
  },
  start: '输入关键词开始检索学术新闻。',
  resultCount: (count: number) => `找到 ${count} 条相关新闻`,
  noResults: '未找到相关新闻，请尝试其他关键词或调整筛选条件',
  loadFailed: '新闻检索失败，请重试',
  retry: '重试',
  pagination: '新闻检索结果分页',
} as const;
