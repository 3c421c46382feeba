import type { FakeApi } from './fake-api';

/**
 * Answers with ONLY the fields the product contract names (its data types and API calls), none of the ones our
 * server adds (freshness, learning, empty explanations, reasons, alert settings, pagination extras,
 * the caller's favourite state on recommendations...). The web app must work against any backend that
 * answers like this; spec-only-answers.test.tsx renders every screen from them. Untyped on purpose:
 * the response types of @radar/shared describe our server, which says more.
 */

export const SPEC_EMAIL = 'wang.fang@example.edu.cn';
const SPEC_TOKEN = 'spec-token';

/** GET /api/auth/user/: id, email, username and the research fields; no `name`. */
const specUser = {
  id: 7,
  email: SPEC_EMAIL,
  username: 'wangfang',
  research_description: '',
  research_name: '王芳',
  research_email: SPEC_EMAIL,
  research_institution: '复旦大学',
  research_position: '副教授',
  research_fields: 'Chemistry,computer-science',
  research_summary_en: 'Machine learning for catalyst discovery.',
};

/** POST /api/auth/login/ and /verify-email/: the token and the user's id, email and description. */
export const specLoginAnswer = {
  token: SPEC_TOKEN,
  user: { id: 7, email: SPEC_EMAIL, research_description: '' },
};

/**
 * GET /api/auth/recommendations/papers/: success, recommendations (id, title, authors, abstract, date or
 * year, journal, url or doi, jcr, llm_summary, similarity_score), recommendations_count, user_id,
 * similarity_threshold. One paper with a url, one with only a DOI written with its 'doi:' prefix and
 * only a year, one with neither.
 */
export const specPaperRecommendations = {
  success: true,
  recommendations: [
    {
      id: 'p-1',
      title: 'Graph networks for catalyst screening',
      authors: ['Li Wei', { name: 'Zhou Min' }],
      abstract: 'We screen catalysts with graph networks.',
      date: '2026-11-20',
      journal: 'Nature Catalysis',
      url: 'https://journal.example.org/p-1',
      jcr: 1,
      llm_summary: '用图网络筛选催化剂。',
      similarity_score: 0.8123,
    },
    {
      id: 'p-2',
      title: 'Active learning of adsorption energies',
      authors: ['Chen Jie'],
      abstract: 'Adsorption energies learned actively.',
      year: 2025,
      journal: 'ACS Catalysis',
      doi: 'doi:10.1021/acscatal.5b00001',
      jcr: 2,
      llm_summary: null,
      similarity_score: 0.7456,
    },
    {
      id: 'p-3',
      title: 'A survey without any link',
      authors: [],
      abstract: '',
      date: '2026-11-19',
      journal: '',
      jcr: null,
      llm_summary: null,
      similarity_score: 0.6,
    },
  ],
  recommendations_count: 3,
  user_id: 7,
  similarity_threshold: 0.3,
};

/** A news item: id, title, content, institute_name, publish_date, crawl_date, url, is_recommended, recommendation_score. */
function specNewsItem(id: string, title: string, score: Record<string, number>, isRecommended: boolean) {
  return {
    id,
    title,
    content: `${title}：研究团队发布了新成果。`,
    institute_name: '复旦大学',
    publish_date: '2026-11-21T02:00:00Z',
    crawl_date: '2026-11-21T03:00:00Z',
    url: `https://news.example.edu.cn/${id}`,
    is_recommended: isRecommended,
    ...score,
  };
}

/** GET /api/news/recommendations/: data and pagination { total_count, current_page }; one score under each name. */
export const specNewsRecommendations = {
  data: [
    specNewsItem('n-1', '复旦大学发布催化剂筛选新方法', { recommendation_score: 0.71 }, true),
    specNewsItem('n-2', '化学系举办机器学习研讨会', { similarity_score: 0.64 }, true),
  ],
  pagination: { total_count: 2, current_page: 1 },
};

/** POST /api/news/search/: answered as the news list state of the contract (data, total, page). */
export const specNewsSearch = {
  data: [specNewsItem('n-3', '催化剂研究获得国家自然科学奖', {}, false)],
  pagination: { total_count: 1, current_page: 1 },
};

/** A paper as a backend that sends only the contract's fields carries it in search results. */
const specSearchPaper = {
  id: 's-1',
  title: 'Catalyst discovery with transformers',
  authors: ['Sun Yu', 'Guo Lan'],
  abstract: 'Transformers predict catalyst activity.',
  date: '2026-10-01',
  journal: 'JACS',
  keywords: ['catalysis'],
  url: '',
  doi: 'https://doi.org/10.1021/jacs.6b00002',
  pdf_url: null,
  created_at: '2026-10-02T00:00:00Z',
  updated_at: '2026-10-02T00:00:00Z',
  is_favorited: true,
  is_saved: false,
  jcr: 1,
  llm_summary: null,
};

/** GET /articles/search/: results, count, next. */
export const specArticleSearch = { results: [specSearchPaper], count: 1, next: null };

/** GET /articles/library/ (not in the contract; answered as the search is). */
export const specLibrary = { results: [specSearchPaper], count: 1, next: null };

/** GET /user-keywords/ "returns the keyword list": a bare list of id, name, created_at. */
export const specKeywords = [
  { id: 11, name: 'catalysis', created_at: '2026-11-01T08:00:00Z' },
  { id: 12, name: 'graph neural networks', created_at: '2026-11-02T08:00:00Z' },
];

/** GET /user-rkeywords/ "returns recommended keywords": here plain names. */
export const specKeywordSuggestions = ['density functional theory', 'catalysis'];

/** GET /api/auth/verification-status/: remaining_time, remaining_attempts, has_verification_code. */
export const specVerificationStatus = { remaining_time: 125, remaining_attempts: 5, has_verification_code: true };

/**
 * Signs in with the contract's user answer (the token and email in localStorage, as the app stores
 * them); renderApp's `user` option takes our server's typed user, which has more fields.
 */
export function signInWithSpecUser(api: FakeApi) {
  api.on('GET', '/api/auth/user/', { body: specUser });
  return { token: SPEC_TOKEN, userEmail: SPEC_EMAIL };
}
