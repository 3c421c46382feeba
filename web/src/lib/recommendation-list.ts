/**
 * Taking one item out of a cached recommendation answer and putting it back where it was: the
 * optimistic 'not interested' and its undo. Papers answer `recommendations` with
 * `recommendations_count`, news answer `data` with `pagination.total_count`; the count follows the
 * list so the heading matches the cards. Cached objects are never changed; any other value, or an
 * answer without the item, gives null (take) or comes back as it was (put back).
 */

/** The two kinds of recommended items a reader can mark 'not interested'. */
export type RecommendationKind = 'paper' | 'news';

/** Where an item sat in one answer. */
export type ListPosition = { item: { id: string }; index: number };

type Answer = Record<string, unknown>;

const LIST_FIELD: Record<RecommendationKind, string> = { paper: 'recommendations', news: 'data' };

const hasId = (item: unknown, id: string): item is { id: string } =>
  typeof item === 'object' && item !== null && (item as { id?: unknown }).id === id;

const isAnswer = (data: unknown): data is Answer => typeof data === 'object' && data !== null;

function withCount(kind: RecommendationKind, answer: Answer, delta: number): Answer {
  if (kind === 'paper') {
    const count = answer.recommendations_count;
    return typeof count === 'number' ? { ...answer, recommendations_count: Math.max(0, count + delta) } : answer;
  }
  const pagination = answer.pagination;
  if (!isAnswer(pagination) || typeof pagination.total_count !== 'number') return answer;
  return { ...answer, pagination: { ...pagination, total_count: Math.max(0, pagination.total_count + delta) } };
}

/** The answer without item `id`, and where it was; null when the answer does not list it. */
export function takeFromAnswer<T>(
  data: T,
  kind: RecommendationKind,
  id: string,
): { data: T; position: ListPosition } | null {
  if (!isAnswer(data)) return null;
  const list = data[LIST_FIELD[kind]];
  if (!Array.isArray(list)) return null;
  const index = list.findIndex((item: unknown) => hasId(item, id));
  if (index < 0) return null;
  const answer = { ...data, [LIST_FIELD[kind]]: list.filter((_item: unknown, at: number) => at !== index) };
  return { data: withCount(kind, answer, -1) as T, position: { item: list[index], index } };
}

/**
 * The answer with the item back at its old index (or at the end when the list got shorter meanwhile);
 * unchanged when it lists the item already (a reload after the undo brought it back).
 */
export function putBackInAnswer<T>(data: T, kind: RecommendationKind, position: ListPosition): T {
  if (!isAnswer(data)) return data;
  const list = data[LIST_FIELD[kind]];
  if (!Array.isArray(list) || list.some((item: unknown) => hasId(item, position.item.id))) return data;
  const restored = [...list];
  restored.splice(Math.min(position.index, restored.length), 0, position.item);
  return withCount(kind, { ...data, [LIST_FIELD[kind]]: restored }, 1) as T;
}
