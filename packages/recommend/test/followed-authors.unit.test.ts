import { describe, expect, it } from 'vitest';
import { affiliationsOverlap, matchFollowedAuthor } from '../src/followed-authors';

/**
 * How a paper's author is recognised as a followed person (pure rules; the name keys come from
 * radar.author_name_key, tested through the API in server/src/features/followed-authors/followed-authors.test.ts).
 */

const follow = {
  nameKey: 'zhong g',
  orcid: '0000-0002-2952-6642',
  openalexId: 'A5046728432',
  affiliation: 'Ocean University of China',
};

describe('matchFollowedAuthor', () => {
  it('takes an id over the name, and two different ids as two people', () => {
    expect(matchFollowedAuthor(follow, { name: 'G. Z.', nameKey: 'z g', orcid: follow.orcid })).toBe('id');
    expect(matchFollowedAuthor(follow, { name: 'Guoqiang Zhong', nameKey: 'zhong g', openalexId: 'A5046728432' })).toBe(
      'id',
    );
    expect(
      matchFollowedAuthor(follow, { name: 'Guoqiang Zhong', nameKey: 'zhong g', orcid: '0000-0001-5109-3700' }),
    ).toBeUndefined();
    expect(
      matchFollowedAuthor(follow, { name: 'Guoqiang Zhong', nameKey: 'zhong g', openalexId: 'A1' }),
    ).toBeUndefined();
  });

  it('needs a shared institution when both name one, and marks a bare name match', () => {
    const author = { name: 'Zhong, Guoqiang', nameKey: 'zhong g' };
    expect(
      matchFollowedAuthor(follow, { ...author, affiliation: 'College of CS, Ocean University of China, Qingdao' }),
    ).toBe('affiliation');
    expect(
      matchFollowedAuthor(follow, { ...author, affiliation: 'Stanford University, Stanford, CA' }),
    ).toBeUndefined();
    expect(matchFollowedAuthor(follow, author)).toBe('name');
    expect(matchFollowedAuthor({ ...follow, orcid: null, openalexId: null, affiliation: null }, author)).toBe('name');
    expect(matchFollowedAuthor(follow, { name: 'Wei Zhang', nameKey: 'zhang w' })).toBeUndefined();
  });
});

describe('affiliationsOverlap', () => {
  it('finds an institution inside a longer line, accents and case aside, but not a shared city or country', () => {
    expect(affiliationsOverlap('Tsinghua University', 'Dept. of CS, TSINGHUA UNIVERSITY, Beijing 100084, China')).toBe(
      true,
    );
    expect(
      affiliationsOverlap('Ludwig-Maximilians-Universität München', 'Ludwig Maximilians Universitat Munchen'),
    ).toBe(true);
    expect(affiliationsOverlap('Peking University, Beijing, China', 'Tsinghua University, Beijing, China')).toBe(false);
    expect(affiliationsOverlap('University of Oxford', 'University of Cambridge')).toBe(false);
    expect(affiliationsOverlap('Department of Physics, MIT', 'Department of Physics, Stanford University')).toBe(false);
  });
});
