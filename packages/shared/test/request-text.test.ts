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

const requestSchemas = (Object.entries(shared) as [string, unknown][]).filter(
  (entry): entry is [string, z.ZodObject] => REQUEST_SCHEMA_NAME.test(entry[0]) && entry[1] instanceof z.ZodObject,
);

const BAD_TEXTS = {
  NUL: 'a\u0000b@example.com',
  'a lone high surrogate': 'ab\ud800c@example.com',
  'a lone low surrogate': '\udc00x@example.com',
  'a high surrogate at the end': 'x@example.com\ud83d',
};

const issuesAt = (schema: z.ZodType, key: string, value: unknown) =>
  (schema.safeParse({ [key]: value }).error?.issues ?? []).filter((issue) => issue.path[0] === key);

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
    Object.keys(schema.shape).map((key) => [`${name}.${key}`, schema, key] as const),
  );

  describe.each(fields)('%s', (_field, schema, key) => {
    it.each(Object.entries(BAD_TEXTS))('refuses %s with a Chinese message naming the field', (_name, value) => {
      const issues = issuesAt(schema, key, value);
      expect(issues.length).toBeGreaterThan(0);
      // The first (shown) message is the character rule, e.g. '邮箱地址包含无效字符'.
      expect(issues[0]?.message).toMatch(/^[\u4e00-\u9fff]+包含无效字符$/);
    });

    it('refuses them inside a list, where the field takes one', () => {
      if (issuesAt(schema, key, ['ok']).length > 0) return; // not a list field
      for (const value of Object.values(BAD_TEXTS)) {
        expect(issuesAt(schema, key, ['ok', value])[0]?.message).toMatch(/包含无效字符$/);
      }
    });
  });
});
