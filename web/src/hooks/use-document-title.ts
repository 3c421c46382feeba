import { useEffect } from 'react';
import { APP_NAME } from '@/config/app';

/** Sets the browser tab title to "<title> · 科研雷达", or the product name alone. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);
}
