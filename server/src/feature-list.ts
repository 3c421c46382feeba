import type { Feature } from './feature';
import { accountsFeature } from './features/accounts';
import { articlesFeature } from './features/articles';
import { deliveryFeature } from './features/delivery';
import { feedbackFeature } from './features/feedback';
import { followedAuthorsFeature } from './features/followed-authors';
import { interestsFeature } from './features/interests';
import { keywordsFeature } from './features/keywords';
import { learningFeature } from './features/learning';
import { newsRecommendationsFeature } from './features/news-recommendations';
import { newsSearchFeature } from './features/news-search';
import { paperRecommendationsFeature } from './features/paper-recommendations';
import { researchProfileFeature } from './features/research-profile';
import { systemFeature } from './features/system';

/** Every server feature, built in this order by the composition root (runtime.ts); a new one is one line here. */
export const FEATURES: readonly Feature[] = [
  systemFeature,
  accountsFeature,
  researchProfileFeature,
  paperRecommendationsFeature,
  articlesFeature,
  feedbackFeature,
  newsRecommendationsFeature,
  newsSearchFeature,
  keywordsFeature,
  learningFeature,
  interestsFeature,
  followedAuthorsFeature,
  deliveryFeature,
];
