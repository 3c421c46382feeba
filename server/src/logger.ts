import pino, { type DestinationStream, type Logger } from 'pino';

/** Where a request is logged, the query string is left out: it can carry e-mail addresses and tokens. */
const pathOnly = (url: string | undefined) => (url ?? '').split('?')[0];

/**
 * The process logger. Credentials are redacted wherever they appear in logged objects; request
 * logs carry method, path, status and timing, never headers or bodies.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          'password',
          '*.password',
          'password2',
          '*.password2',
          'confirm_password',
          '*.confirm_password',
          'token',
          '*.token',
          'verification_code',
          '*.verification_code',
          'code',
          'authorization',
          '*.authorization',
          'headers.authorization',
          '*.headers.authorization',
          'jwtSecret',
          '*.jwtSecret',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (request: { method?: string; url?: string; id?: string; ip?: string }) => ({
          id: request.id,
          method: request.method,
          path: pathOnly(request.url),
        }),
        res: (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}
