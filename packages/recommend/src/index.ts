/*
 * @radar/recommend: where papers and news are recommended and keyword alerts get their reasons. See
 * README.md for the entry points.
 */
export { ContentSources } from './content-sources';
export {
  collectDigestItems,
  type DigestFilters,
  type DigestItem,
  noPublishedPreprints,
  type PublishedPreprintNotice,
  type PublishedPreprintsProvider,
} from './digest';
export { fieldOrderScore, OUT_OF_FIELD_FACTOR } from './field-rule';
export { findFollowedAuthorPapers, type MatchedAuthorPaper } from './followed-authors';
export {
  createRecommendationPipelines,
  isLearnedProfileBehind,
  keywordAlertReasons,
  RecommendationPipeline,
} from './pipeline';
export { type ProfileVectorProblem, profileVectorOf } from './profile-vector';
export { suggestThreshold } from './threshold';
