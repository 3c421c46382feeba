import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link as RouterLink } from 'react-router-dom';
import { paths } from '@/config/paths';

type SearchTabsProps = {
  /** The search screen shown. */
  current: 'papers' | 'news';
};

/** Switches between the two search screens (/search and /search/news), one menu entry for both. */
export function SearchTabs({ current }: SearchTabsProps) {
  return (
    <Tabs
      value={current}
      aria-label="检索类型"
      role="navigation"
      sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
    >
      <Tab
        value="papers"
        label="论文"
        component={RouterLink}
        to={paths.search.getHref()}
        aria-current={current === 'papers' ? 'page' : undefined}
        data-testid="search-tab-papers"
      />
      <Tab
        value="news"
        label="新闻"
        component={RouterLink}
        to={paths.newsSearch.getHref()}
        aria-current={current === 'news' ? 'page' : undefined}
        data-testid="search-tab-news"
      />
    </Tabs>
  );
}
