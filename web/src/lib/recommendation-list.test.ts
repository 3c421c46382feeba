import { describe, expect, it } from 'vitest';
import { type ListPosition, putBackInAnswer, takeFromAnswer } from './recommendation-list';

const papers = (...ids: string[]) => ({
  success: true,
  recommendations: ids.map((id) => ({ id, title: `Paper ${id}` })),
  recommendations_count: ids.length,
});
const news = (...ids: string[]) => ({
  data: ids.map((id) => ({ id, title: `News ${id}` })),
  pagination: { total_count: 45, current_page: 1, page_size: 20, total_pages: 3 },
});

/** What takeFromAnswer gave, failing the test when it took nothing. */
function taken<T>(result: { data: T; position: ListPosition } | null) {
  if (!result) throw new Error('nothing was taken');
  return result;
}

describe('takeFromAnswer / putBackInAnswer', () => {
  it('takes a paper out with its count and puts it back at the same place', () => {
    const answer = papers('a', 'b', 'c');
    const { data, position } = taken(takeFromAnswer(answer, 'paper', 'b'));
    expect(data).toEqual(papers('a', 'c'));
    expect(position).toEqual({ item: { id: 'b', title: 'Paper b' }, index: 1 });
    expect(answer).toEqual(papers('a', 'b', 'c'));
    expect(putBackInAnswer(data, 'paper', position)).toEqual(answer);
  });

  it('takes a news item out of its page and counts it out of the total', () => {
    const { data, position } = taken(takeFromAnswer(news('x', 'y'), 'news', 'x'));
    expect(data.data.map((item) => item.id)).toEqual(['y']);
    expect(data.pagination.total_count).toBe(44);
    expect(putBackInAnswer(data, 'news', position)).toEqual(news('x', 'y'));
  });

  it('leaves other answers alone', () => {
    expect(takeFromAnswer(papers('a'), 'paper', 'z')).toBeNull();
    expect(takeFromAnswer(news('a'), 'paper', 'a')).toBeNull();
    expect(takeFromAnswer(undefined, 'news', 'a')).toBeNull();
  });

  it('puts back at the end of a list that got shorter, and never twice', () => {
    const position = { item: { id: 'c', title: 'Paper c' }, index: 5 };
    expect(putBackInAnswer(papers('a'), 'paper', position)).toEqual(papers('a', 'c'));
    const listed = papers('a', 'c');
    expect(putBackInAnswer(listed, 'paper', position)).toBe(listed);
  });
});
