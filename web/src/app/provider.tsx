import type { ReactNode } from 'react';
import { AppTheme } from '@/theme/app-theme';
import { AppErrorBoundary } from './error-boundary';

/**
 * App-wide providers outside the router. The auth provider sits inside the router (see router.tsx)
 * because logout navigates.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <AppTheme>
      <AppErrorBoundary>{children}</AppErrorBoundary>
    </AppTheme>
  );
}
