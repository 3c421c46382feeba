import type OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { z } from 'zod';
import { AiProviderError } from '../ai-errors';
import type { LanguageModel, LlmGenerateOptions } from '../providers';
import { callOpenAi, createOpenAiClient, type OpenAiEndpointOptions } from './openai-client';

/**
 * How JSON answers are requested. `json_object` (the default) works with OpenAI and nearly every
 * compatible server (DeepSeek, Qwen, vLLM, Ollama); `json_schema` adds server-side schema enforcement
 * where supported; `prompt` sends no response_format at all. In every mode the schema is also in the
 * prompt and the answer is validated here.
 */
export type LlmJsonMode = 'json_object' | 'json_schema' | 'prompt';

export interface OpenAiChatOptions extends OpenAiEndpointOptions {
  model: string;
  jsonMode?: LlmJsonMode;
}

/** Accepts bare JSON, or JSON wrapped in a Markdown code fence or surrounded by a sentence. */
function parseJsonAnswer(content: string): unknown {
  const trimmed = content.trim();
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed);
  const candidate = fenced ? (fenced[1] ?? '') : trimmed;
  try {
    return JSON.parse(candidate);
  } catch (error) {
    const start = candidate.indexOf('{');
    const end = candidate.lastIndexOf('}');
    if (start >= 0 && end > start) return JSON.parse(candidate.slice(start, end + 1));
    throw error;
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

export class OpenAiChatModel implements LanguageModel {
  readonly model: string;
  private readonly client: OpenAI;
  private readonly jsonMode: LlmJsonMode;

  constructor(options: OpenAiChatOptions) {
    this.model = options.model;
    this.jsonMode = options.jsonMode ?? 'json_object';
    this.client = createOpenAiClient(options);
  }

  async generateText(options: LlmGenerateOptions): Promise<string> {
    return this.complete(
      [
        { role: 'system', content: options.system },
        { role: 'user', content: options.user },
      ],
      options,
    );
  }

  async generateJson<T>(options: LlmGenerateOptions & { schema: z.ZodType<T>; schemaName: string }): Promise<T> {
    const jsonSchema = z.toJSONSchema(options.schema, { unrepresentable: 'any' }) as Record<string, unknown>;
    const messages: ChatCompletionMessageParam[] = [
      {
        role: 'system',
        content: `${options.system}\n\nAnswer with one JSON object only (no Markdown, no comments), matching this JSON schema:\n${JSON.stringify(jsonSchema)}`,
      },
      { role: 'user', content: options.user },
    ];
    const responseFormat: ChatCompletionCreateParamsNonStreaming['response_format'] =
      this.jsonMode === 'json_schema'
        ? { type: 'json_schema', json_schema: { name: options.schemaName, schema: jsonSchema, strict: false } }
        : this.jsonMode === 'json_object'
          ? { type: 'json_object' }
          : undefined;

    let problem = '';
    // The first answer, and one retry that tells the model what was wrong with it.
    for (let attempt = 0; attempt < 2; attempt++) {
      const content = await this.complete(messages, options, responseFormat);
      let parsed: unknown;
      try {
        parsed = parseJsonAnswer(content);
      } catch (error) {
        problem = `not valid JSON (${(error as Error).message})`;
        messages.push(
          { role: 'assistant', content },
          { role: 'user', content: `Your answer was ${problem}. Reply again with only the JSON object.` },
        );
        continue;
      }
      const result = options.schema.safeParse(parsed);
      if (result.success) return result.data;
      problem = `JSON that does not match the schema (${describeIssues(result.error)})`;
      messages.push(
        { role: 'assistant', content },
        { role: 'user', content: `Your answer was ${problem}. Reply again with only the corrected JSON object.` },
      );
    }
    throw new AiProviderError('invalid-output', `${this.model} returned ${problem}, also after one retry`);
  }

  private async complete(
    messages: ChatCompletionMessageParam[],
    options: LlmGenerateOptions,
    responseFormat?: ChatCompletionCreateParamsNonStreaming['response_format'],
  ): Promise<string> {
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: this.model,
      messages,
      temperature: 0.2,
      ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}),
      ...(responseFormat ? { response_format: responseFormat } : {}),
    };
    const completion = await callOpenAi(
      `chat completion (${this.model})`,
      () => this.client.chat.completions.create(body, options.signal ? { signal: options.signal } : {}),
      options.signal,
    );
    const choice = completion.choices?.[0];
    const content = choice?.message?.content;
    if (typeof content !== 'string' || content.trim() === '') {
      throw new AiProviderError(
        'invalid-output',
        `${this.model} returned no text (finish_reason ${choice?.finish_reason ?? 'unknown'})`,
      );
    }
    return content;
  }
}
