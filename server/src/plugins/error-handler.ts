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

/**
 * One error shape for every failure. 4xx carry a message the UI can show; 5xx never leak internals
 * (the details go to the log with the request id).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send(errorBody(error.code, error.message, error.extra));
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string[]> = {};
      for (const issue of error.validation) {
        const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        const messages = fields[path] ?? [];
        messages.push(issue.message ?? '无效');
        fields[path] = messages;
      }
      const where = FIELD_LABELS[error.validationContext ?? ''] ?? '请求';
      const first = error.validation[0];
      const firstMessage = first?.message ?? '';
      const field = first?.instancePath.replace(/^\//, '') || undefined;
      const message = isHumanMessage(firstMessage)
        ? firstMessage
        : field
          ? `${where}字段 ${field} 无效：${firstMessage}`
          : `${where}无效：${firstMessage}`;
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

    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, route: request.routeOptions.url }, 'response did not match its schema');
    } else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Another client error raised by a plugin: keep its status, give our shape.
      const body: ApiError = { code: 'BAD_REQUEST', message: DEFAULT_ERROR_MESSAGES.BAD_REQUEST };
      return reply.status(error.statusCode).send(body);
    } else {
      request.log.error({ err: error }, 'unhandled error');
    }
    const body: ApiError = { code: 'INTERNAL_ERROR', message: DEFAULT_ERROR_MESSAGES.INTERNAL_ERROR };
    return reply.status(500).send(body);
  });
}
