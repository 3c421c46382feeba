import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { LandingPage } from '@/features/landing/pages/landing-page';
import { getReturnTarget } from '@/lib/navigation-state';

/** Set by /my just before the logout that follows deleting the account; read once here. */
export const ACCOUNT_DELETED_FLAG = 'accountDeleted';

/** Composes the landing feature with the session (features do not import each other). */
export function LandingRoute() {
  const { status, hasSessionExpired } = useAuth();
  const location = useLocation();
  const [wasAccountDeleted] = useState(() => sessionStorage.getItem(ACCOUNT_DELETED_FLAG) === '1');
  useEffect(() => sessionStorage.removeItem(ACCOUNT_DELETED_FLAG), []);
  return (
    <LandingPage
      isAuthenticated={status === 'authenticated'}
      redirectedFrom={getReturnTarget(location.state)}
      hasSessionExpired={hasSessionExpired}
      wasAccountDeleted={wasAccountDeleted}
    />
  );
}
