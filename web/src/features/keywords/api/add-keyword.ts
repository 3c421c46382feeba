import { API_PATHS, type Keyword } from '@radar/shared';
import { api } from '@/lib/api-client';
import { readKeywordAnswer } from '@/lib/spec-answers';

/** POST /user-keywords/add/ `{ keyword }`: 201 with the keyword; 409 when it is already followed. */
export async function addKeyword(keyword: string): Promise<{ keyword: Keyword }> {
  return readKeywordAnswer(await api.post<unknown>(API_PATHS.addKeyword, { keyword }), { name: keyword });
}
