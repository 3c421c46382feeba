import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { createQueryClient } from '@/lib/query-client';
import { AppTheme } from '@/theme/app-theme';
import { AppErrorBoundary } from './error-boundary';

/**
 * App-wide providers outside the router: theme, error boundary and the TanStack Query client
 * (defaults in lib/query-client). The auth provider sits inside the router (see router.tsx) because
 * logout navigates; it clears the query cache when the account changes.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <AppTheme>
      <AppErrorBoundary>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AppErrorBoundary>
    </AppTheme>
  );
}
