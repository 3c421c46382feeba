import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type { z } from 'zod';
import type { EmbeddingModelIdentity, EmbeddingProvider, LanguageModel, LlmGenerateOptions } from '../providers';

/**
 * A local OpenAI-compatible server (POST /v1/embeddings, POST /v1/chat/completions, OpenAI wire
 * format) and small providers that call it through the `openai` SDK, for testing the content jobs
 * against real HTTP without the network. Inputs containing POISON-EMBED or POISON-SUMMARY fail.
 */

export const TEST_DIMENSION = 16;

/** Deterministic unit vector from the words of a text. */
export function testVector(text: string): number[] {
  const vector = new Array<number>(TEST_DIMENSION).fill(0);
  for (const word of text.toLowerCase().split(/\W+/).filter(Boolean)) {
    let hash = 2166136261;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619);
    const bucket = (hash >>> 0) % TEST_DIMENSION;
    vector[bucket] = (vector[bucket] ?? 0) + 1;
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  if (norm === 0) return vector.map(() => 1 / Math.sqrt(TEST_DIMENSION));
  return vector.map((value) => value / norm);
}

export interface OpenAiTestServer {
  baseUrl: string;
  calls: { embeddings: number; embeddedTexts: number; chat: number };
  /** Every request fails with 503 while set (provider outage). */
  setDown(down: boolean): void;
  close(): Promise<void>;
}

export async function startOpenAiTestServer(): Promise<OpenAiTestServer> {
  const calls = { embeddings: 0, embeddedTexts: 0, chat: 0 };
  let down = false;
  const server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const send = (status: number, payload: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    if (down) return send(503, { error: { message: 'service unavailable', type: 'server_error', code: null } });

    if (request.method === 'POST' && request.url === '/v1/embeddings') {
      calls.embeddings++;
      const input = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
      if (input.some((text) => text.includes('POISON-EMBED'))) {
        return send(400, {
          error: { message: 'input contains forbidden text', type: 'invalid_request_error', code: null },
        });
      }
      calls.embeddedTexts += input.length;
      return send(200, {
        object: 'list',
        // The openai SDK asks for base64 (packed float32) unless told otherwise, as the real API allows.
        data: input.map((text, index) => ({
          object: 'embedding',
          index,
          embedding:
            body.encoding_format === 'base64'
              ? Buffer.from(new Float32Array(testVector(text)).buffer).toString('base64')
              : testVector(text),
        })),
        model: body.model,
        usage: { prompt_tokens: input.length, total_tokens: input.length },
      });
    }
    if (request.method === 'POST' && request.url === '/v1/chat/completions') {
      calls.chat++;
      const messages = (body.messages as { role: string; content: string }[]) ?? [];
      const user = messages.find((message) => message.role === 'user')?.content ?? '';
      const system = messages.find((message) => message.role === 'system')?.content ?? '';
      if (user.includes('POISON-SUMMARY'))
        return send(500, { error: { message: 'model crashed', type: 'server_error' } });
      const title = /Title: (.*)/.exec(user)?.[1] ?? '';
      const content = system.includes('Chinese')
        ? `**摘要：** 本文研究了“${title}”。作者提出了新的方法。实验表明该方法有效。`
        : `This paper studies ${title}. It proposes a method. Experiments show it works.`;
      return send(200, {
        id: `chatcmpl-${calls.chat}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 },
      });
    }
    send(404, { error: { message: 'not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    calls,
    setDown: (value) => {
      down = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** EmbeddingProvider over the test server, through the openai SDK. */
export class TestEmbeddingProvider implements EmbeddingProvider {
  readonly model: EmbeddingModelIdentity = {
    provider: 'openai-compatible',
    name: 'test-embedding',
    version: '1',
    dimension: TEST_DIMENSION,
  };
  private readonly client: OpenAI;

  constructor(baseUrl: string) {
    this.client = new OpenAI({ baseURL: baseUrl, apiKey: 'test-key', maxRetries: 0 });
  }

  async embed(texts: string[]): Promise<number[][]> {
    const result = await this.client.embeddings.create({ model: this.model.name, input: texts });
    return result.data.sort((a, b) => a.index - b.index).map((item) => item.embedding);
  }
}

/** LanguageModel over the test server, through the openai SDK. */
export class TestLanguageModel implements LanguageModel {
  readonly model = 'test-chat';
  private readonly client: OpenAI;

  constructor(baseUrl: string) {
    this.client = new OpenAI({ baseURL: baseUrl, apiKey: 'test-key', maxRetries: 0 });
  }

  async generateText(options: LlmGenerateOptions): Promise<string> {
    const completion = await this.client.chat.completions.create({
      model: this.model,
      max_tokens: options.maxTokens,
      messages: [
        { role: 'system', content: options.system },
        { role: 'user', content: options.user },
      ],
    });
    return completion.choices[0]?.message.content ?? '';
  }

  async generateJson<T>(options: LlmGenerateOptions & { schema: z.ZodType<T>; schemaName: string }): Promise<T> {
    return options.schema.parse(JSON.parse(await this.generateText(options)));
  }
}
