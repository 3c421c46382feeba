import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageLoader } from '@/components/feedback/page-loader';
import { paths } from '@/config/paths';
import { createReturnState } from '@/lib/navigation-state';
import { useAuth } from '../hooks/use-auth';

/**
 * Guard of the screens that need an account: anonymous visitors are sent to / (replace), with the wanted path kept in
 * navigation state as `from`. While a stored token is being checked it waits rather than redirecting.
 * Use as a layout route (renders the child routes) or around an element.
 */
export function RequireAuth({ children }: { children?: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();

  if (status === 'loading') return <PageLoader />;
  if (status === 'anonymous') {
    const wanted = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={paths.home.getHref()} replace state={createReturnState(wanted)} />;
  }
  return children ?? <Outlet />;
}
