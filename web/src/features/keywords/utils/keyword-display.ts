import type { Keyword, KeywordSuggestionsResponse } from '@radar/shared';
import { KEYWORD_STRINGS } from '../strings';

type Suggestion = KeywordSuggestionsResponse['keywords'][number];

/** The alert state of a keyword in a few words: '每天提醒', '每周提醒' or '提醒已关闭'. */
export function describeAlert(keyword: Pick<Keyword, 'alert_enabled' | 'alert_frequency'>): string {
  return keyword.alert_enabled ? KEYWORD_STRINGS.alert.on(keyword.alert_frequency) : KEYWORD_STRINGS.alert.off;
}

/**
 * Suggestions the user does not follow yet. The server leaves followed keywords out, but its answer is
 * cached: a suggestion added a moment ago disappears at once instead of after the next fetch.
 */
export function unfollowedSuggestions(
  suggestions: readonly Suggestion[],
  keywords: readonly Pick<Keyword, 'name'>[],
): Suggestion[] {
  const followed = new Set(keywords.map((keyword) => keyword.name.trim().toLowerCase()));
  return suggestions.filter((suggestion) => !followed.has(suggestion.name.trim().toLowerCase()));
}
