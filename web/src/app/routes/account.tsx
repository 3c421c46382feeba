import { PageLoader } from '@/components/feedback/page-loader';
import { AccountPage } from '@/features/account/pages/account-page';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { ACCOUNT_DELETED_FLAG } from './landing';

/** Composes the account page with the session (features do not import each other). */
export function AccountRoute() {
  const { user, logout, refreshUser } = useAuth();
  // A deleted account logs out here (to the landing page), which then says what happened. A flag in
  // sessionStorage, not navigation state: the route guard's own redirect off /my would replace that.
  const onAccountDeleted = () => {
    sessionStorage.setItem(ACCOUNT_DELETED_FLAG, '1');
    logout();
  };
  // The route is guarded, so a user is there; the loader covers the instant of a logout.
  if (!user) return <PageLoader />;
  return <AccountPage user={user} onLogout={logout} onProfileSaved={refreshUser} onAccountDeleted={onAccountDeleted} />;
}
