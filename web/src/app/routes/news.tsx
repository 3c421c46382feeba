import { useAuth } from '@/features/auth/hooks/use-auth';
import { NewsPage } from '@/features/news-recommendations/pages/news-page';

/** Composes the news page with the session (features do not import each other). */
export function NewsRoute() {
  const { user } = useAuth();
  return <NewsPage hasResearchSummary={Boolean(user?.research_summary_en.trim())} />;
}
