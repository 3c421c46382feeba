import { API_PATHS, apiPath, type Keyword, type KeywordUpdate } from '@radar/shared';
import { api } from '@/lib/api-client';
import { readKeywordAnswer } from '@/lib/spec-answers';

/** PATCH /user-keywords/{id}/update/: alert_enabled, alert_frequency, negative_terms (fields left out keep their value). */
export async function updateKeyword(id: string, update: KeywordUpdate): Promise<{ keyword: Keyword }> {
  const answer = await api.patch<unknown>(apiPath(API_PATHS.updateKeyword, { id }), update);
  return readKeywordAnswer(answer, { id, name: '' });
}
