import { ARTICLE_SEARCH_QUERY_MAX_LENGTH, type ArticleLibraryList } from '@radar/shared';

/** Every text of the article search and the favourites screens. */
export const ARTICLE_STRINGS = {
  search: {
    pageTitle: '论文检索',
    pageSubtitle: '输入关键词检索论文，多个关键词需同时匹配',
    label: '关键词',
    placeholder: '多个关键词用空格分隔，短语可加英文双引号',
    submit: '检索',
    empty: '请输入搜索关键词',
    tooLong: `搜索关键词不能超过 ${ARTICLE_SEARCH_QUERY_MAX_LENGTH} 个字符`,
    myKeywords: '我的关键词',
    myKeywordsHint: '点击关键词加入或移出检索条件',
    toggleKeyword: (name: string, selected: boolean) => (selected ? `从检索条件中移除“${name}”` : `按“${name}”检索`),
    /** The page is guarded: its reader is logged in and only lacks keywords (not the spec's 请登录…, meant for visitors). */
    noKeywords: '你还没有关注关键词。关注后，可以在这里一键按关键词检索论文。',
    goSetKeywords: '去设置',
    start: '输入关键词开始检索论文；也可以先关注关键词，再一键检索。',
    resultCount: (count: number) => `找到 ${count} 篇相关论文`,
    matching: '同时包含：',
    /** Other messages. */
    noResults: '未找到与关键词相关的论文，请尝试其他关键词',
    /** Other messages. */
    loadFailed: '加载论文列表失败，请重试',
    retry: '重试',
    pagination: '论文检索结果分页',
  },

  library: {
    pageTitle: '我的收藏',
    pageSubtitle: '收藏和稍后阅读的论文，按最近标记排列',
    tabs: { all: '全部', favorited: '收藏', saved: '稍后阅读' } satisfies Record<ArticleLibraryList, string>,
    tabsLabel: '收藏列表',
    count: (count: number) => `共 ${count} 篇`,
    empty: {
      all: '还没有收藏或稍后阅读的论文。在论文推荐或论文检索中点击收藏、稍后阅读按钮即可加入。',
      favorited: '还没有收藏的论文。',
      saved: '还没有标记为稍后阅读的论文。',
    } satisfies Record<ArticleLibraryList, string>,
    goSearch: '去检索论文',
    loadFailed: '加载论文列表失败，请重试',
    retry: '重试',
    pagination: '收藏列表分页',
    progress: (progress: number) => (progress >= 100 ? '已读完' : progress > 0 ? `已读 ${progress}%` : '未读'),
    progressLabel: '阅读进度',
    markRead: '标记为已读',
    marked: (relative: string) => `标记于${relative}`,
    /** The export button of each tab (a menu of BibTeX, RIS, CSL-JSON). */
    exportList: { all: '导出全部', favorited: '导出收藏', saved: '导出稍后读' } satisfies Record<
      ArticleLibraryList,
      string
    >,
  },
} as const;
