import pino, { type DestinationStream, type Logger } from 'pino';

/** Where a request is logged, the query string is left out: it can carry e-mail addresses and tokens. */
const pathOnly = (url: string | undefined) => (url ?? '').split('?')[0];

/** Body fields that carry a secret: passwords, verification codes, reset and login tokens. */
const SECRET_FIELDS = [
  'password',
  'password2',
  'confirm_password',
  'new_password',
  'token',
  'reset_token',
  'access_token',
  'verification_code',
  'jwtSecret',
];

/**
 * Where a secret can sit in a logged object: a field at the top or one level down (`{ body: ... }`), a
 * logged body one level down (`{ request: { body } }`), the credential headers of a logged request or
 * response, and a `code` field of a logged body (`*.code` would also hide the codes of errors, which the
 * logs need).
 */
const REDACTED_PATHS = [
  ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.body.${field}`]),
  'code',
  'body.code',
  '*.body.code',
  'authorization',
  'cookie',
  '*.authorization',
  '*.cookie',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
];

/**
 * The process logger. Credentials are redacted wherever they appear in logged objects; request
 * logs carry method, path, status and timing, never headers or bodies.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      redact: {
        paths: REDACTED_PATHS,
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
