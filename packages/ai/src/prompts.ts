import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * Prompts are versioned files in the repository's prompts/ directory (`<name>.<version>.md`), so a
 * change to a prompt is reviewed like code and results can say which version made them. A file has a
 * leading comment, then `<!-- system -->` and `<!-- user -->` sections with {{placeholders}}.
 */

const PROMPTS_DIR = fileURLToPath(new URL('../../../prompts/', import.meta.url));

export interface PromptTemplate {
  name: string;
  version: string;
  system: string;
  user: string;
}

const cache = new Map<string, PromptTemplate>();

export async function loadPrompt(name: string, version: string): Promise<PromptTemplate> {
  const key = `${name}.${version}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const text = await fs.readFile(`${PROMPTS_DIR}${key}.md`, 'utf8');
  const system = /<!--\s*system\s*-->([\s\S]*?)<!--\s*user\s*-->/.exec(text)?.[1];
  const user = /<!--\s*user\s*-->([\s\S]*)$/.exec(text)?.[1];
  if (!system?.trim() || !user?.trim()) throw new Error(`prompt ${key}.md needs a system and a user section`);
  const template = { name, version, system: system.trim(), user: user.trim() };
  cache.set(key, template);
  return template;
}

/** Replaces {{name}} placeholders; an unknown placeholder is an error, not silently left in. */
export function renderPrompt(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`prompt placeholder {{${key}}} has no value`);
    return value;
  });
}
