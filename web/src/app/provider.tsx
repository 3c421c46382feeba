import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { createQueryClient } from '@/lib/query-client';
import { AppTheme } from '@/theme/app-theme';
import { AppErrorBoundary } from './error-boundary';

/**
 * App-wide providers outside the router: theme, error boundary and the TanStack Query client
 * (defaults in lib/query-client). The auth provider sits inside the router (see router.tsx) because
 * logout navigates; it clears the query cache when the account changes. The entry passes its client
 * (the public settings it asked for at start are in it); tests get a new one.
 */
export function AppProvider({ children, queryClient: given }: { children: ReactNode; queryClient?: QueryClient }) {
  const [created] = useState(() => given ?? createQueryClient());
  const queryClient = given ?? created;
  return (
    <AppTheme>
      <AppErrorBoundary>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AppErrorBoundary>
    </AppTheme>
  );
}
