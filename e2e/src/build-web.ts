import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));
export const WEB_VITE_CONFIG = path.join(WEB_ROOT, 'vite.config.ts');

/**
 * Production build of web/ from the current sources into `outDir`, exactly as `vite build` would make
 * it. Vitest sets NODE_ENV=test, which would make Vite produce a development build (React's dev
 * runtime), so NODE_ENV is production for the duration of the build. Global setups run before any
 * test worker starts, so no other code sees the change.
 */
export async function buildWebApp(outDir: string): Promise<void> {
  const previousNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: WEB_ROOT,
      configFile: WEB_VITE_CONFIG,
      mode: 'production',
      build: { outDir, emptyOutDir: true },
      logLevel: 'warn',
    });
  } finally {
    if (previousNodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = previousNodeEnv;
  }
}
