import { describe, expect, it } from 'vitest';
import { interleaveByQuota } from '../src/interest-quotas';

const ids = (from: number, count: number) => Array.from({ length: count }, (_, index) => ({ id: from + index }));
const idOf = (item: { id: number }) => item.id;
const count = (result: { key: string }[], key: string) => result.filter((entry) => entry.key === key).length;

describe('interleaveByQuota', () => {
  it('with one interest is that interest’s own order, cut at top_k', () => {
    const result = interleaveByQuota([{ key: 'summary', quota: 5, items: ids(1, 30) }], 20, idOf);
    expect(result.map((entry) => entry.item.id)).toEqual(ids(1, 20).map(idOf));
  });

  it('gives equal quotas equal shares, alternating, the first interest leading', () => {
    const result = interleaveByQuota(
      [
        { key: 'a', quota: 5, items: ids(1, 50) },
        { key: 'b', quota: 5, items: ids(101, 50) },
      ],
      20,
      idOf,
    );
    expect(count(result, 'a')).toBe(10);
    expect(count(result, 'b')).toBe(10);
    expect(result.slice(0, 4).map((entry) => entry.key)).toEqual(['a', 'b', 'a', 'b']);
  });

  it('follows unequal quotas (3:1) and keeps each list’s order', () => {
    const result = interleaveByQuota(
      [
        { key: 'a', quota: 3, items: ids(1, 50) },
        { key: 'b', quota: 1, items: ids(101, 50) },
      ],
      20,
      idOf,
    );
    expect(count(result, 'a')).toBe(15);
    expect(count(result, 'b')).toBe(5);
    const fromB = result.filter((entry) => entry.key === 'b').map((entry) => entry.item.id);
    expect(fromB).toEqual([101, 102, 103, 104, 105]);
  });

  it('counts an item found by two interests once, for the interest that picks it first', () => {
    const result = interleaveByQuota(
      [
        { key: 'a', quota: 1, items: [{ id: 1 }, { id: 2 }, { id: 3 }] },
        { key: 'b', quota: 1, items: [{ id: 1 }, { id: 2 }, { id: 9 }] },
      ],
      10,
      idOf,
    );
    expect(result.map((entry) => [entry.key, entry.item.id])).toEqual([
      ['a', 1],
      ['b', 2],
      ['a', 3],
      ['b', 9],
    ]);
  });

  it('gives the slots of an interest that runs out to the others', () => {
    const result = interleaveByQuota(
      [
        { key: 'a', quota: 1, items: ids(1, 50) },
        { key: 'b', quota: 1, items: ids(101, 3) },
      ],
      20,
      idOf,
    );
    expect(result).toHaveLength(20);
    expect(count(result, 'b')).toBe(3);
    expect(count(result, 'a')).toBe(17);
  });

  it('returns nothing when no interest has candidates', () => {
    expect(interleaveByQuota([{ key: 'a', quota: 1, items: [] }], 20, idOf)).toEqual([]);
  });
});
