import type { KeywordResponse } from '@radar/shared';
import { api } from '@/lib/api-client';

/** POST /user-keywords/add/ `{ keyword }`: 201 with the keyword; 409 when it is already followed. */
export function addKeyword(keyword: string): Promise<KeywordResponse> {
  return api.post<KeywordResponse>('/user-keywords/add/', { keyword });
}
