import ArticleOutlined from '@mui/icons-material/ArticleOutlined';
import BookmarksOutlined from '@mui/icons-material/BookmarksOutlined';
import FeedbackOutlined from '@mui/icons-material/FeedbackOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import LoginOutlined from '@mui/icons-material/LoginOutlined';
import NewspaperOutlined from '@mui/icons-material/NewspaperOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import SellOutlined from '@mui/icons-material/SellOutlined';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import type { ComponentType } from 'react';
import { paths } from '@/config/paths';

export type NavItem = {
  /** Stable id, also used in `data-testid="nav-<id>"`. */
  id: string;
  label: string;
  href: string;
  icon: ComponentType<SvgIconProps>;
  /** Anonymous visitors get the need-login dialog instead of the page. */
  requiresAuth: boolean;
  /** Opens the coming-soon dialog instead of navigating. */
  comingSoon?: boolean;
};

/** Screens implied by the calls of the API (keywords, article and news search, favourites). */
const SESSION_ITEMS: NavItem[] = [
  { id: 'keywords', label: '关键词', href: paths.keywords.getHref(), icon: SellOutlined, requiresAuth: true },
  { id: 'search', label: '检索', href: paths.search.getHref(), icon: SearchOutlined, requiresAuth: true },
  { id: 'library', label: '我的收藏', href: paths.library.getHref(), icon: BookmarksOutlined, requiresAuth: true },
];

/**
 * The menu; the last entry depends on the session. The screens added to the first menu (keywords,
 * search, favourites) are listed after news for a session only, so a visitor sees the short menu and
 * its order stays.
 */
export function getNavItems(hasSession: boolean): NavItem[] {
  return [
    { id: 'home', label: '官网', href: paths.home.getHref(), icon: HomeOutlined, requiresAuth: false },
    { id: 'papers', label: '论文推荐', href: paths.papers.getHref(), icon: ArticleOutlined, requiresAuth: true },
    { id: 'news', label: '新闻推荐', href: paths.news.getHref(), icon: NewspaperOutlined, requiresAuth: true },
    ...(hasSession ? SESSION_ITEMS : []),
    { id: 'feedback', label: '意见反馈', href: paths.feedback.getHref(), icon: FeedbackOutlined, requiresAuth: true },
    hasSession
      ? { id: 'my', label: '我的', href: paths.my.getHref(), icon: PersonOutlined, requiresAuth: true }
      : { id: 'login', label: '登录', href: paths.login.getHref(), icon: LoginOutlined, requiresAuth: false },
  ];
}

export function isNavItemActive(item: NavItem, pathname: string): boolean {
  if (item.href === paths.home.getHref()) return pathname === item.href;
  return pathname === item.href || pathname.startsWith(`${item.href}/`);
}
