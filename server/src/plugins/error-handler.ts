import { type ApiError, DEFAULT_ERROR_MESSAGES, type ErrorCode } from '@radar/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../errors';

/** Fastify's own error codes for malformed requests, mapped to our codes and Chinese messages. */
const FRAMEWORK_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'BAD_REQUEST', message: '请求内容不是有效的 JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'BAD_REQUEST',
    message: '请求内容为空：声明了 JSON 格式却没有内容',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: '请求内容过大' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: '不支持的请求格式，请使用 application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'BAD_REQUEST', message: '请求长度与内容不符' },
  FST_ERR_BAD_URL: { status: 400, code: 'BAD_REQUEST', message: '请求地址无效' },
};

const FIELD_LABELS: Record<string, string> = { body: '请求内容', querystring: '查询参数', params: '路径参数' };

/** Messages our schemas write for people (Chinese); zod's own defaults are English and technical. */
const isHumanMessage = (message: string) => /[\u4e00-\u9fff]/.test(message);

const RESERVED_MEMBERS = new Set(['code', 'message', 'fields', 'remaining_seconds', 'error']);

/**
 * The error body. Field messages are also repeated at the top level (`{ email: ['...'] }`), which is
 * how the spec's register page reads them.
 */
function errorBody(code: ApiError['code'], message: string, extra: Record<string, unknown> = {}): ApiError {
  const fields = extra.fields as Record<string, string[]> | undefined;
  const topLevel = Object.fromEntries(Object.entries(fields ?? {}).filter(([name]) => !RESERVED_MEMBERS.has(name)));
  return { ...topLevel, ...extra, code, message };
}

/** Quoted parts of a message: where PostgreSQL, JSON.parse and others quote the value they refused. */
const QUOTED = /"[^"]*"|'[^']*'/g;
const MAX_LOGGED_MESSAGE_LENGTH = 300;
/** Our queries select every column by name: long, and worth having whole. */
const MAX_LOGGED_QUERY_LENGTH = 4000;
const MAX_LOGGED_STACK_FRAMES = 15;

/** The first line of a message, with quoted values blanked: the rest can carry the request's data. */
const sanitizeMessage = (message: unknown) =>
  typeof message === 'string'
    ? (message.split('\n', 1)[0] ?? '').replace(QUOTED, '"…"').slice(0, MAX_LOGGED_MESSAGE_LENGTH)
    : undefined;

/** Stack frames only: the stack's first lines repeat the message, data included. */
const stackFrames = (stack: unknown) =>
  typeof stack === 'string'
    ? stack
        .split('\n')
        .filter((line) => line.trimStart().startsWith('at '))
        .slice(0, MAX_LOGGED_STACK_FRAMES)
        .map((line) => line.trim())
    : undefined;

type ErrorLike = Record<string, unknown> & { message?: unknown; stack?: unknown; cause?: unknown };

/**
 * What the log gets of an unexpected error: its type, code, a sanitized message and the stack frames,
 * and the same of its cause. Never the whole error: Drizzle's DrizzleQueryError carries the query's
 * parameters (the request's e-mail, text, ...) in its message and its `params`, and PostgreSQL's
 * errors quote the value they refused and carry the row in `detail`.
 */
function describeServerError(error: unknown, depth = 0): Record<string, unknown> | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const err = error as ErrorLike;
  const isFailedQuery = typeof err.query === 'string' && Array.isArray(err.params);
  return {
    type: err.constructor?.name ?? typeof error,
    ...(typeof err.code === 'string' ? { code: err.code } : {}),
    // The SQL of a failed query has placeholders, not values; its parameters are left out.
    message: isFailedQuery
      ? `Failed query: ${(err.query as string).slice(0, MAX_LOGGED_QUERY_LENGTH)}`
      : sanitizeMessage(err.message),
    // PostgreSQL names the object at fault; identifiers, not data.
    ...Object.fromEntries(
      ['severity', 'constraint', 'table', 'column', 'routine']
        .filter((key) => typeof err[key] === 'string')
        .map((key) => [key, err[key]]),
    ),
    stack: stackFrames(err.stack),
    ...(err.cause !== undefined && depth < 3 ? { cause: describeServerError(err.cause, depth + 1) } : {}),
  };
}

/**
 * One error shape for every failure. 4xx carry a message the UI can show; 5xx never leak internals
 * (the details go to the log with the request id).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      // Every refusal that knows its wait says it the HTTP way too, for clients and proxies that read it.
      const wait = error.extra.remaining_seconds;
      if (error.statusCode === 429 && typeof wait === 'number') reply.header('retry-after', String(wait));
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.extra));
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        const messages = fields[path] ?? [];
        const message = issue.message ?? '无效';
        // Two rules of one field can fail with the same text (wrong type, then empty): say it once.
        if (!messages.includes(message)) messages.push(message);
        fields[path] = messages;
      }
      const where = FIELD_LABELS[error.validationContext ?? ''] ?? '请求';
      const first = error.validation[0];
      const firstMessage = first?.message ?? '';
      const field = first?.instancePath.replace(/^\//, '') || undefined;
      // zod's own (English) message at the root means the body is not an object (an array, a number):
      // said in Chinese, without zod's wording. A field's keeps the field name beside zod's text.
      const message = isHumanMessage(firstMessage)
        ? firstMessage
        : field
          ? `${where}字段 ${field} 无效：${firstMessage}`
          : `${where}必须是一个 JSON 对象`;
      return reply.status(400).send(errorBody('VALIDATION_ERROR', message, { fields }));
    }

    const framework = error.code ? FRAMEWORK_ERRORS[error.code] : undefined;
    if (framework) {
      const body: ApiError = { code: framework.code, message: framework.message };
      return reply.status(framework.status).send(body);
    }

    if (error.statusCode === 429) {
      const body: ApiError = { code: 'RATE_LIMITED', message: DEFAULT_ERROR_MESSAGES.RATE_LIMITED };
      return reply.status(429).send(body);
    }

    // Logged under `error`: pino's `err` serializer takes anything with a message for an error and rebuilds it.
    if (isResponseSerializationError(error)) {
      const issues = error.cause.issues.map(({ code, path, message }) => ({ code, path, message }));
      request.log.error({ route: request.routeOptions.url, issues }, 'response did not match its schema');
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Another client error raised by a plugin: keep its status, give our shape.
      const body: ApiError = { code: 'BAD_REQUEST', message: DEFAULT_ERROR_MESSAGES.BAD_REQUEST };
      return reply.status(error.statusCode).send(body);
    } else {
      request.log.error({ route: request.routeOptions.url, error: describeServerError(error) }, 'unhandled error');
    }
    const body: ApiError = { code: 'INTERNAL_ERROR', message: DEFAULT_ERROR_MESSAGES.INTERNAL_ERROR };
    return reply.status(500).send(body);
  });
}
