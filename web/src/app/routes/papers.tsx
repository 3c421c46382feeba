import { useAuth } from '@/features/auth/hooks/use-auth';
import { PapersPage } from '@/features/paper-recommendations/pages/papers-page';

/** Composes the papers page with the session (features do not import each other). */
export function PapersRoute() {
  const { user } = useAuth();
  return <PapersPage hasResearchSummary={Boolean(user?.research_summary_en.trim())} />;
}
