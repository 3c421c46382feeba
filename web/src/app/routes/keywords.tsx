import { useAuth } from '@/features/auth/hooks/use-auth';
import { KeywordsPage } from '@/features/keywords/pages/keywords-page';

/** Composes the keyword page with the session (features do not import each other). */
export function KeywordsRoute() {
  const { user } = useAuth();
  return <KeywordsPage hasResearchSummary={Boolean(user?.research_summary_en.trim())} />;
}
