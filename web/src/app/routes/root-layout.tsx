import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { PageLoader } from '@/components/feedback/page-loader';
import { AuthProvider } from '@/features/auth/components/auth-provider';
import { AppShell } from '../shell/app-shell';

/** Root route element: session state, the shell, and the current page (loaded on demand). */
export function RootLayout() {
  return (
    <AuthProvider>
      <AppShell>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </AppShell>
    </AuthProvider>
  );
}
