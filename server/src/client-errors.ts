import http from 'node:http';
import type { Socket } from 'node:net';
import type { ApiError } from '@radar/shared';
import type { FastifyInstance } from 'fastify';

/**
 * What Node refuses before any route runs (Node's HTTP parser and its request timeout), in the API's
 * error shape with a Chinese message. Fastify's default answer has an English body of another shape and
 * no `Connection: close`, though the socket is closed right after: a keep-alive client then sends its
 * next request into a closed connection and sees that one fail instead.
 */
const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  // Headers (cookies included) over Node's 16 kB maxHeaderSize; a URL that long counts as headers too.
  HPE_HEADER_OVERFLOW: { status: 431, message: '请求头过大，请清除本站的 Cookie 后重试' },
  // The request (headers and body) did not arrive within HTTP_TIMEOUTS.requestMs.
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: '请求发送超时，请检查网络后重试' },
};
const MALFORMED = { status: 400, message: '请求格式无效，无法解析' };

/** The raw HTTP answer for a client error: the error body, closing the connection. */
function clientErrorResponse(errorCode: string | undefined): string {
  const { status, message } = (errorCode && CLIENT_ERRORS[errorCode]) || MALFORMED;
  const body: ApiError = { code: 'BAD_REQUEST', message };
  const json = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Cache-Control: no-store',
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    json,
  ].join('\r\n');
}

/**
 * Fastify's `clientErrorHandler`: answers a request Node could not take (clientErrorResponse) and closes
 * the connection once the answer is sent. As in Node's own handler, nothing is written when the client
 * already reset the connection or an answer on this socket has begun (its bytes would corrupt it).
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  this.log.debug({ code: error.code }, 'client error before routing');
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(error.code));
  // A client that never reads its answer must not hold the socket: end() waits for the write to drain.
  socket.setTimeout(5_000, () => socket.destroy());
}
