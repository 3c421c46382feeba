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
export { isLearnedProfileBehind, keywordAlertReasons, RecommendationPipeline } from './pipeline';
export { suggestThreshold } from './threshold';
export {
  affiliationsOverlap,
  type FollowedAuthorMatch,
  type FollowedAuthorPaper,
  findFollowedAuthorPapers,
  matchFollowedAuthor,
} from './followed-authors';
