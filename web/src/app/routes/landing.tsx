import { useLocation } from 'react-router-dom';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { LandingPage } from '@/features/landing/pages/landing-page';
import { getReturnTarget } from '@/lib/navigation-state';

/** Composes the landing feature with the session (features do not import each other). */
export function LandingRoute() {
  const { status, hasSessionExpired } = useAuth();
  const location = useLocation();
  return (
    <LandingPage
      isAuthenticated={status === 'authenticated'}
      redirectedFrom={getReturnTarget(location.state)}
      hasSessionExpired={hasSessionExpired}
    />
  );
}
