import { ArticleSearchPage } from '@/features/articles/pages/article-search-page';
import { useKeywords } from '@/features/keywords/hooks/use-keywords';

/** Composes article search with the followed keywords, offered as one-click search terms (features do not import each other). */
export function ArticleSearchRoute() {
  const keywords = useKeywords();
  // A failed keyword list only hides the chips: the search itself does not need it.
  const names = keywords.data?.keywords.map((keyword) => keyword.name);
  return <ArticleSearchPage followedKeywords={keywords.isError ? [] : names} />;
}
