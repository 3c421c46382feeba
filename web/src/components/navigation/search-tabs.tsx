import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link as RouterLink } from 'react-router-dom';
import { paths } from '@/config/paths';

type SearchTabsProps = {
  /** The search screen shown. */
  current: 'papers' | 'news';
};

const SEARCH_TABS = [
  { value: 'papers', label: '论文', href: () => paths.search.getHref() },
  { value: 'news', label: '新闻', href: () => paths.newsSearch.getHref() },
] as const;

/** Switches between the two search screens (/search and /search/news), one menu entry for both. */
export function SearchTabs({ current }: SearchTabsProps) {
  return (
    <Tabs
      value={current}
      aria-label="检索类型"
      role="navigation"
      sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
    >
      {SEARCH_TABS.map((tab) => (
        <Tab
          key={tab.value}
          value={tab.value}
          label={tab.label}
          component={RouterLink}
          to={tab.href()}
          aria-current={current === tab.value ? 'page' : undefined}
          data-testid={`search-tab-${tab.value}`}
        />
      ))}
    </Tabs>
  );
}
