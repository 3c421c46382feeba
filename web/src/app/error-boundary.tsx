import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorFallback } from '@/components/errors/error-fallback';

type AppErrorBoundaryState = { hasError: boolean };

/** Last line of defence around the whole app; errors inside routes are caught by the router first. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, AppErrorBoundaryState> {
  override state: AppErrorBoundaryState = { hasError: false };

  static getDerivedStateFromError(): AppErrorBoundaryState {
    return { hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('[app] render error', error, info.componentStack);
  }

  override render() {
    return this.state.hasError ? <ErrorFallback /> : this.props.children;
  }
}
