import type { FastifyInstance } from 'fastify';

/*
 * Closing the HTTP server on shutdown. Fastify's close stops listening, closes the idle keep-alive
 * connections once, answers requests that arrive afterwards with 503, and waits for the requests in
 * flight. But a keep-alive connection whose request was in flight turns idle only after that and is then
 * kept for keepAliveTimeout (72 s), holding the close open (fastify/fastify#7044, Fastify 5.12).
 */

/** Answers sent while the server closes say `Connection: close`, so each connection ends with its answer. */
export function registerCloseAfterAnswer(app: FastifyInstance): void {
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (isClosing) reply.header('connection', 'close');
    return payload;
  });
}

/**
 * Closes the app: no new connections, every request in flight answered. Once `stopWaiting` aborts, the
 * connections still open are cut instead, so the rest of the shutdown (queues, pool, database) can run.
 */
export async function closeHttpServer(app: FastifyInstance, stopWaiting?: AbortSignal): Promise<void> {
  const cutConnections = () => {
    app.log.warn('no longer waiting for requests in flight: closing their connections');
    app.server.closeAllConnections();
  };
  stopWaiting?.addEventListener('abort', cutConnections, { once: true });
  try {
    const closing = app.close();
    if (stopWaiting?.aborted) cutConnections();
    await closing;
  } finally {
    stopWaiting?.removeEventListener('abort', cutConnections);
  }
}
