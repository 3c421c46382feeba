import {
  type Freshness,
  type Keyword,
  type LearningStatusResponse,
  type NewsItem,
  type NewsListResponse,
  type NewsRecommendationResponse,
  type Paper,
  type PaperRecommendationResponse,
  RESEARCH_DIRECTION_NOT_SET,
  type RecommendationReason,
  type RecommendedPaper,
  type Session,
  type UserResponse,
} from '@radar/shared';

/**
 * Bodies the fake API answers with, typed by the response schemas of @radar/shared so they keep the
 * server's shape. Each builder takes overrides for the state under test.
 */

export function testUser(overrides: Partial<UserResponse> = {}): UserResponse {
  return {
    id: 'user-1',
    email: 'li.hua@example.edu.cn',
    username: '',
    name: 'li.hua',
    research_description: '',
    research_name: '李华',
    research_email: 'li.hua@example.edu.cn',
    research_institution: '清华大学',
    research_position: '博士研究生',
    research_fields: 'computer-science',
    research_summary_en: 'Graph neural networks for molecular property prediction.',
    ...overrides,
  };
}

/** A user with no research info at all (no summary, no fields): the first-visit state of /my. */
export function newUser(overrides: Partial<UserResponse> = {}): UserResponse {
  return testUser({
    research_name: '',
    research_email: '',
    research_institution: '',
    research_position: '',
    research_fields: '',
    research_summary_en: '',
    ...overrides,
  });
}

export function testPaper(overrides: Partial<Paper> = {}): Paper {
  return {
    id: 'paper-1',
    title: 'Message passing networks for molecules',
    authors: ['Ada Chen', 'Bo Wang'],
    abstract: 'We study message passing neural networks on molecular graphs.',
    date: '2026-11-20',
    year: 2026,
    journal: 'Nature Machine Intelligence',
    keywords: ['graph neural networks'],
    url: 'https://doi.org/10.1000/paper-1',
    doi: '10.1000/paper-1',
    pdf_url: null,
    jcr: 1,
    llm_summary: null,
    is_favorited: false,
    is_saved: false,
    created_at: '2026-11-20T08:00:00.000Z',
    updated_at: '2026-11-20T08:00:00.000Z',
    ...overrides,
  };
}

export function testReason(overrides: Partial<RecommendationReason> = {}): RecommendationReason {
  return {
    kind: 'terms',
    text: '与你的研究方向共有：graph neural network、molecule',
    terms: ['graph neural network', 'molecule'],
    ...overrides,
  };
}

export function recommendedPaper(overrides: Partial<RecommendedPaper> = {}): RecommendedPaper {
  return { ...testPaper(overrides), similarity_score: 0.8765, reason: testReason(), ...overrides };
}

/** Sources that ran an hour before the test's clock (whatever it is) and brought 42 items this week. */
export function testFreshness(overrides: Partial<Freshness> = {}): Freshness {
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600 * 1000).toISOString();
  return { last_new_item_at: hoursAgo(5), last_checked_at: hoursAgo(3), new_items_last_7_days: 42, ...overrides };
}

export function paperRecommendations(
  papers: RecommendedPaper[],
  overrides: Partial<PaperRecommendationResponse> = {},
): PaperRecommendationResponse {
  return {
    success: true,
    recommendations: papers,
    recommendations_count: papers.length,
    user_id: 'user-1',
    similarity_threshold: 0.3,
    top_k: 20,
    excluded_jcr: [4, 3],
    date_filter: ['一周内'],
    published_since: '2026-11-16',
    filtered_out_count: 0,
    filtered_out: { by_date: 0, by_tier: 0, by_threshold: 0 },
    unknown_tier_included: true,
    notes: [],
    learning: { applied: false, signal_count: 0 },
    freshness: testFreshness(),
    empty_explanation: null,
    ...overrides,
  };
}

export function testNews(overrides: Partial<NewsItem> = {}): NewsItem {
  return {
    id: 'news-1',
    title: '清华大学发布分子图学习新成果',
    content: '研究团队提出了一种新的分子图神经网络。',
    institute_name: '清华大学',
    publish_date: '2026-11-21T02:00:00.000Z',
    crawl_date: '2026-11-21T03:00:00.000Z',
    url: 'https://news.example.edu.cn/1',
    is_recommended: true,
    recommendation_score: 0.72,
    similarity_score: 0.72,
    reason: null,
    ...overrides,
  };
}

export function newsList(items: NewsItem[], overrides: Partial<NewsListResponse['pagination']> = {}): NewsListResponse {
  const totalCount = overrides.total_count ?? items.length;
  const pageSize = overrides.page_size ?? 20;
  return {
    data: items,
    pagination: {
      total_count: totalCount,
      current_page: 1,
      page_size: pageSize,
      total_pages: Math.ceil(totalCount / pageSize),
      ...overrides,
    },
  };
}

/** A page of GET /api/news/recommendations/ (a news list plus learning, freshness and the empty explanation). */
export function newsRecommendations(
  items: NewsItem[],
  overrides: Partial<Omit<NewsRecommendationResponse, 'data' | 'pagination'>> & {
    pagination?: Partial<NewsListResponse['pagination']>;
  } = {},
): NewsRecommendationResponse {
  const { pagination, ...rest } = overrides;
  return {
    ...newsList(items, pagination),
    learning: { applied: false, signal_count: 0 },
    freshness: testFreshness(),
    empty_explanation: null,
    ...rest,
  };
}

export function learningStatus(overrides: Partial<LearningStatusResponse> = {}): LearningStatusResponse {
  return {
    success: true,
    signal_count: 0,
    liked_count: 0,
    dismissed_count: 0,
    applied: false,
    updated_at: null,
    reset_at: null,
    ...overrides,
  };
}

export function testKeyword(overrides: Partial<Keyword> = {}): Keyword {
  return {
    id: 'keyword-1',
    name: 'graph neural networks',
    created_at: '2026-11-01T08:00:00.000Z',
    alert_enabled: false,
    alert_frequency: 'daily',
    negative_terms: [],
    last_alerted_at: null,
    ...overrides,
  };
}

/** The 400 of the recommendation calls without an English research summary. */
export function researchProfileNotSetError() {
  return {
    status: 400,
    body: {
      code: 'RESEARCH_DIRECTION_NOT_SET',
      message: RESEARCH_DIRECTION_NOT_SET.error,
      error: RESEARCH_DIRECTION_NOT_SET.error,
      error_type: RESEARCH_DIRECTION_NOT_SET.errorType,
      details: RESEARCH_DIRECTION_NOT_SET.details,
    },
  };
}

/** One login of the account (GET /api/auth/sessions/), beyond the spec. */
export function session(overrides: Partial<Session> = {}): Session {
  return {
    id: '7f0c1a52-3c1e-4f7e-9a31-2b8d0e6c4a10',
    device: 'Chrome · Windows',
    user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36',
    created_at: '2026-11-20T02:00:00.000Z',
    last_seen_at: new Date().toISOString(),
    is_current: true,
    ...overrides,
  };
}
