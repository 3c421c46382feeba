import { z } from 'zod';

// The web app runs under a Content-Security-Policy without 'unsafe-eval'. zod 4 compiles object parsers
// with `new Function` when it may, and its probe for that is itself a CSP violation in the browser. Every
// shared schema is built on text() below, so this module is evaluated before any of them parses.
// Node (the server) keeps the compiled parsers.
if ('document' in globalThis) z.config({ jitless: true });

/**
 * A NUL character, or half of a UTF-16 surrogate pair without its other half. PostgreSQL refuses NUL
 * in text (the query fails), and a lone surrogate cannot be encoded as UTF-8: the driver silently
 * stores U+FFFD instead, and jsonb refuses its `\ud800` escape. Neither belongs in anything a person
 * types, so requests carrying them are refused before they reach a service.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasInvalidCharacters = (value: string): boolean => value.includes('\u0000') || LONE_SURROGATE.test(value);

/** The message for a field with such characters, naming the field ('邮箱地址包含无效字符'). */
export const invalidCharactersMessage = (label: string): string => `${label}包含无效字符`;

/**
 * The base of every string field of every request schema (body, query and path parameters): a string
 * without NUL or lone surrogates. `label` names the field in Chinese for the messages; `message`
 * replaces the one for a value that is not a string. Chain `.trim()`, `.max()` etc. after it; the
 * character check aborts the field, so no later rule reports on text that was refused anyway.
 */
export function text(label: string, options: { message?: string } = {}) {
  const typeMessage = options.message ?? `${label}必须是文本`;
  return z
    .string({ error: (issue) => (issue.code === 'invalid_type' ? typeMessage : undefined) })
    .refine((value) => !hasInvalidCharacters(value), { message: invalidCharactersMessage(label), abort: true });
}

/** Free text of a profile form: trimmed, at most `max` characters. */
export const boundedText = (max: number, label: string) =>
  text(label)
    .trim()
    .max(max, { message: `${label}不能超过 ${max} 个字符` });

/**
 * A field that takes a text or a list of texts (both built on `text()`). A failure reports the rule
 * the value broke in the branch of its type ('研究领域包含无效字符'), not zod's bare "Invalid input".
 */
export function textOrList<Single extends z.ZodType<string>, List extends z.ZodType<string[]>>(
  single: Single,
  list: List,
  typeMessage: string,
) {
  return z.union([single, list], {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return typeMessage;
      const isTypeMismatch = (branch: z.core.$ZodIssue[]) =>
        branch.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0);
      const matched = issue.errors.find((branch) => !isTypeMismatch(branch));
      return matched?.[0]?.message ?? typeMessage;
    },
  });
}
