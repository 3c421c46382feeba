/** Prometheus metrics of a process and the internal listener that serves them; prom-client stays behind this package. */
export * from './app-metrics';
export * from './metrics-server';
