import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as shared from '../src';
import { hasInvalidCharacters, text } from '../src';

/**
 * Every request schema (body, query, path parameters) refuses NUL and lone UTF-16 surrogates in every
 * string field, with a Chinese message naming the field. The schemas are found by name, so a new one
 * is checked without being listed here.
 */
const REQUEST_SCHEMA_NAME = /(Request|Query|Params|Update)Schema$/;

/** The object a request schema parses: itself, or the input side of a transform (query strings parsed into values). */
const objectOf = (schema: unknown): z.ZodObject | undefined =>
  schema instanceof z.ZodObject ? schema : schema instanceof z.ZodPipe ? objectOf(schema.in) : undefined;

const requestSchemas = (Object.entries(shared) as [string, unknown][]).flatMap(([name, schema]) => {
  const object = REQUEST_SCHEMA_NAME.test(name) ? objectOf(schema) : undefined;
  return object ? [[name, object] as [string, z.ZodObject]] : [];
});

const BAD_TEXTS = {
  NUL: 'a\u0000b@example.com',
  'a lone high surrogate': 'ab\ud800c@example.com',
  'a lone low surrogate': '\udc00x@example.com',
  'a high surrogate at the end': 'x@example.com\ud83d',
};

/** The issues of a body with `value` at `path` (one key, or a key of a nested object). */
const issuesAt = (schema: z.ZodType, path: readonly string[], value: unknown) => {
  const body = path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
  return (schema.safeParse(body).error?.issues ?? []).filter((issue) =>
    path.every((key, index) => issue.path[index] === key),
  );
};

/** Whether the field takes free text: a number, object or enum field refuses a plain string by its type or value. */
const takesText = (schema: z.ZodType, path: readonly string[]) =>
  !issuesAt(schema, path, 'ok').some((issue) => issue.code === 'invalid_type' || issue.code === 'invalid_value');

/** An object field (e.g. feedback's userInfo): its own keys are checked like top-level ones. */
const nestedKeys = (field: z.ZodType): string[] => {
  const inner = field instanceof z.ZodOptional || field instanceof z.ZodNullable ? field.unwrap() : field;
  if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) return nestedKeys(inner as z.ZodType);
  return inner instanceof z.ZodObject ? Object.keys(inner.shape) : [];
};

describe('hasInvalidCharacters', () => {
  it.each(Object.entries(BAD_TEXTS))('finds %s', (_name, value) => {
    expect(hasInvalidCharacters(value)).toBe(true);
  });

  it('accepts Chinese, emoji (paired surrogates) and other unicode', () => {
    for (const value of ['科研雷达', 'naïve café', '😀 𝔸 \u200b', '', 'tab\tnewline\n']) {
      expect(hasInvalidCharacters(value)).toBe(false);
      expect(text('字段').safeParse(value).success).toBe(true);
    }
  });
});

describe('request schemas', () => {
  it('are found by name (the list is not empty and includes the known ones)', () => {
    const names = requestSchemas.map(([name]) => name);
    expect(names).toEqual(
      expect.arrayContaining([
        'registerRequestSchema',
        'loginRequestSchema',
        'emailOnlyRequestSchema',
        'verificationStatusQuerySchema',
        'resetPasswordRequestSchema',
        'verifyEmailRequestSchema',
        'researchDescriptionRequestSchema',
        'researchConfirmRequestSchema',
        'taskIdParamsSchema',
        'userUpdateSchema',
      ]),
    );
  });

  const fields = requestSchemas.flatMap(([name, schema]) =>
    Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, field]) => {
      const nested = nestedKeys(field);
      const paths = nested.length ? nested.map((inner) => [key, inner]) : [[key]];
      return paths
        .filter((path) => takesText(schema, path))
        .map((path) => [`${name}.${path.join('.')}`, schema, path] as const);
    }),
  );

  it('checks number fields by type and nested object fields key by key', () => {
    const names = fields.map(([field]) => field);
    expect(names).toContain('feedbackRequestSchema.userInfo.email');
    expect(names).toContain('paperRecommendationQuerySchema.top_k');
    expect(names).not.toContain('articleReadRequestSchema.progress');
  });

  describe.each(fields)('%s', (_field, schema, key) => {
    it.each(Object.entries(BAD_TEXTS))('refuses %s with a Chinese message naming the field', (_name, value) => {
      const issues = issuesAt(schema, key, value);
      expect(issues.length).toBeGreaterThan(0);
      // The first (shown) message is the character rule naming the field in the UI's words, e.g.
      // '邮箱地址包含无效字符', 'Webhook 地址包含无效字符'.
      expect(issues[0]?.message).toMatch(/^(?:[\u4e00-\u9fff]|[A-Za-z]+ ?)+包含无效字符$/);
    });

    it('refuses them inside a list, where the field takes one', () => {
      if (issuesAt(schema, key, ['ok']).length > 0) return; // not a list field
      for (const value of Object.values(BAD_TEXTS)) {
        expect(issuesAt(schema, key, ['ok', value])[0]?.message).toMatch(/包含无效字符$/);
      }
    });
  });
});
