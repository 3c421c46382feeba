import type { KeywordResponse, KeywordUpdate } from '@radar/shared';
import { api } from '@/lib/api-client';

/** PATCH /user-keywords/{id}/update/: alert_enabled, alert_frequency, negative_terms (fields left out keep their value). */
export function updateKeyword(id: string, update: KeywordUpdate): Promise<KeywordResponse> {
  return api.patch<KeywordResponse>(`/user-keywords/${encodeURIComponent(id)}/update/`, update);
}
