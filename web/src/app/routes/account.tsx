import { PageLoader } from '@/components/feedback/page-loader';
import { AccountPage } from '@/features/account/pages/account-page';
import { useAuth } from '@/features/auth/hooks/use-auth';

/** Composes the account page with the session (features do not import each other). */
export function AccountRoute() {
  const { user, logout, refreshUser } = useAuth();
  // The route is guarded, so a user is there; the loader covers the instant of a logout.
  if (!user) return <PageLoader />;
  return <AccountPage user={user} onLogout={logout} onProfileSaved={refreshUser} />;
}
