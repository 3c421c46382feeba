import type { FastifyInstance, RouteOptions } from 'fastify';

/** What the catalog keeps of a route. */
export interface CatalogRoute {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
  config: RouteOptions['config'];
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Every route the app registered, with its schema and config. Tests walk it so that checks over
     * all routes (authentication before validation, no 5xx on fuzzed input) cover new routes unasked.
     */
    readonly routeCatalog: readonly CatalogRoute[];
  }
}

/** Call before any route is registered: the onRoute hook only sees routes added after it. */
export function registerRouteCatalog(app: FastifyInstance): void {
  const routes: CatalogRoute[] = [];
  app.decorate('routeCatalog', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, schema: route.schema, config: route.config });
    }
  });
}
