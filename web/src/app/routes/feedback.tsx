import { useAuth } from '@/features/auth/hooks/use-auth';
import { FeedbackPage } from '@/features/feedback/pages/feedback-page';

/** Composes the feedback page with the session (features do not import each other). */
export function FeedbackRoute() {
  const { user } = useAuth();
  return <FeedbackPage account={user ? { email: user.email, id: user.id } : null} />;
}
