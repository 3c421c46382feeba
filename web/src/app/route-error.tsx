import { useEffect } from 'react';
import { useRouteError } from 'react-router-dom';
import { ErrorFallback } from '@/components/errors/error-fallback';

/**
 * The router's errorElement: a page that throws while rendering, or a route chunk that fails to load
 * (typically after a redeploy replaced the hashed files), shows the reload offer.
 */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    console.error('[app] route error', error);
  }, [error]);
  return <ErrorFallback />;
}
