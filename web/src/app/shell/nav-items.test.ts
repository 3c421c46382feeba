import { describe, expect, it } from 'vitest';
import { getNavItems, isNavItemActive } from './nav-items';

describe('getNavItems', () => {
  it('lists the menu with 登录 for visitors', () => {
    const items = getNavItems(false);
    expect(items.map((item) => [item.label, item.href, item.requiresAuth])).toEqual([
      ['官网', '/', false],
      ['论文推荐', '/papers', true],
      ['新闻推荐', '/news', true],
      ['意见反馈', '/feedback', true],
      ['登录', '/login', false],
    ]);
  });

  it('shows 我的 instead of 登录 with a session, and flags nothing as coming soon', () => {
    const items = getNavItems(true);
    expect(items.at(-1)).toMatchObject({ label: '我的', href: '/my' });
    // The screens implied by the calls sit after news, for a session only.
    expect(items.map((item) => item.href)).toEqual([
      '/',
      '/papers',
      '/news',
      '/keywords',
      '/search',
      '/library',
      '/feedback',
      '/my',
    ]);
    expect(items.some((item) => item.comingSoon)).toBe(false);
  });
});

describe('isNavItemActive', () => {
  const [home, papers] = getNavItems(false);

  it('matches / exactly and other items by prefix', () => {
    if (!home || !papers) throw new Error('menu is empty');
    expect(isNavItemActive(home, '/')).toBe(true);
    expect(isNavItemActive(home, '/papers')).toBe(false);
    expect(isNavItemActive(papers, '/papers')).toBe(true);
    expect(isNavItemActive(papers, '/papers/123')).toBe(true);
    expect(isNavItemActive(papers, '/papersx')).toBe(false);
  });
});
