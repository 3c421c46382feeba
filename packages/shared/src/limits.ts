/** Business constants and limits (lengths, code validity, defaults, slider ranges), shared by the API's validation and the web app. */
export const LIMITS = {
  emailMaxLength: 254,
  passwordMinLength: 8,
  researchDescriptionMaxLength: 3000,
  feedbackTitleMaxLength: 50,
  verificationCodeLength: 6,
  verificationCodeTtlSeconds: 5 * 60,
  verificationMaxAttempts: 5,
  verificationLockSeconds: 60 * 60,
  verificationResendCooldownSeconds: 60,
  /** An unverified registration lasts this long; then the address is free again (docs/decisions.md). */
  pendingRegistrationSeconds: 24 * 60 * 60,
  paperSearchPageSize: 50,
  newsPageSize: 20,
} as const;

export const JCR_TIERS = [1, 2, 3, 4] as const;
export type JcrTier = (typeof JCR_TIERS)[number];

export const PAPER_RECOMMENDATION_DEFAULTS = {
  topK: 20,
  threshold: 0.3,
  excludedJcr: [4, 3] as JcrTier[],
  dateFilter: ['一周内'] as const,
} as const;

export const NEWS_RECOMMENDATION_DEFAULTS = {
  topK: 20,
  threshold: 0.3,
  dateFilter: ['一周内'] as const,
  pageSize: 20,
  searchType: 'keyword',
} as const;

export const RECOMMENDATION_SLIDERS = {
  topK: { min: 5, max: 50, step: 5 },
  threshold: { min: 0.05, max: 0.5, step: 0.05 },
} as const;

export const FEEDBACK_TYPES = ['bug', 'suggestion', 'question', 'other'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];
