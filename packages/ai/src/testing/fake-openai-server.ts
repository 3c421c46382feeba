import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 that speaks the OpenAI wire protocol for the two calls we make
 * (POST /v1/chat/completions, POST /v1/embeddings), scripted per test. The real `openai` client talks
 * to it, so request shapes, headers, status handling, retries and time-outs are all exercised.
 */

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  /** A chat answer's message content (wrapped into a chat.completion body). */
  content?: string;
  /** A raw JSON body instead. */
  body?: unknown;
  /** Never answer (until the server closes): a time-out, or a worker killed mid-request. */
  hang?: boolean;
  /** Answer after this many ms. */
  delayMs?: number;
  /** Answer once this settles: the test chooses the moment. */
  heldUntil?: Promise<unknown>;
}

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FakeOpenAiServer {
  /** Base URL for OPENAI_BASE_URL, ending in /v1. */
  url: string;
  requests: RecordedRequest[];
  chatRequests(): RecordedRequest[];
  embeddingRequests(): RecordedRequest[];
  /** Replies for the next chat requests, in order; afterwards `defaultChat` answers. */
  queueChat(...replies: FakeReply[]): void;
  queueEmbeddings(...replies: FakeReply[]): void;
  defaultChat: (body: Record<string, unknown>) => FakeReply;
  /** The vector of one input when no reply is queued (fakeEmbedding unless a test replaces it). */
  embeddingOf: (text: string, dimension: number) => number[];
  /** Called when a request arrives (before answering). */
  onRequest?: (request: RecordedRequest) => void;
  close(): Promise<void>;
}

/** A deterministic bag-of-words embedding, so texts sharing words are similar. */
export function fakeEmbedding(text: string, dimension: number): number[] {
  const vector = new Float64Array(dimension);
  for (const word of text.toLowerCase().match(/[a-z]{3,}/g) ?? []) {
    const hash = createHash('md5').update(word).digest();
    const index = hash.readUInt32LE(0) % dimension;
    vector[index] = (vector[index] as number) + (hash.readUInt8(4) > 127 ? 1 : -1);
  }
  if (vector.every((value) => value === 0)) vector[0] = 1;
  return Array.from(vector);
}

function chatCompletionBody(model: string, content: string) {
  return {
    id: `chatcmpl-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop', logprobs: null },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

export async function startFakeOpenAi(options: { embeddingDimension?: number } = {}): Promise<FakeOpenAiServer> {
  const chatQueue: FakeReply[] = [];
  const embeddingQueue: FakeReply[] = [];
  const hanging = new Set<http.ServerResponse>();
  const requests: RecordedRequest[] = [];

  const fake: FakeOpenAiServer = {
    url: '',
    requests,
    chatRequests: () => requests.filter((r) => r.path.endsWith('/chat/completions')),
    embeddingRequests: () => requests.filter((r) => r.path.endsWith('/embeddings')),
    queueChat: (...replies) => chatQueue.push(...replies),
    queueEmbeddings: (...replies) => embeddingQueue.push(...replies),
    defaultChat: () => ({ content: '{}' }),
    embeddingOf: fakeEmbedding,
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw || '{}') as Record<string, unknown>;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json"}}');
        return;
      }
      const recorded = { path: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      fake.onRequest?.(recorded);

      let reply: FakeReply;
      if (req.method === 'POST' && req.url === '/v1/chat/completions') {
        reply = chatQueue.shift() ?? fake.defaultChat(body);
        if (reply.content !== undefined)
          reply = { ...reply, body: chatCompletionBody(String(body.model), reply.content) };
      } else if (req.method === 'POST' && req.url === '/v1/embeddings') {
        const dimension = Number(body.dimensions ?? options.embeddingDimension ?? 32);
        const input = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
        const data = input.map((text, index) => ({
          object: 'embedding',
          index,
          embedding: fake.embeddingOf(text, dimension),
        }));
        // Out of order on purpose: clients must sort by index.
        reply = embeddingQueue.shift() ?? {
          body: {
            object: 'list',
            data: data.reverse(),
            model: body.model,
            usage: { prompt_tokens: 1, total_tokens: 1 },
          },
        };
      } else {
        reply = { status: 404, body: { error: { message: 'not found', type: 'invalid_request_error' } } };
      }

      if (reply.hang) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.body ?? {}));
      };
      if (reply.heldUntil) void reply.heldUntil.finally(send);
      else if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}

export const apiError = (status: number, message: string, extraHeaders: Record<string, string> = {}): FakeReply => ({
  status,
  headers: extraHeaders,
  body: { error: { message, type: status === 429 ? 'rate_limit_error' : 'invalid_request_error', code: null } },
});

/** A valid research-profile answer with a summary of the given word count. */
export function researchProfileAnswer(overrides: Record<string, unknown> = {}, summaryWords = 120): string {
  const words =
    'This researcher studies robust machine learning methods for medical imaging and distribution shift'.split(' ');
  const summary = Array.from({ length: summaryWords }, (_, i) => words[i % words.length]).join(' ');
  return JSON.stringify({
    name: 'Jane Okafor',
    email: 'jokafor (at) cs.stanford.edu',
    institution: 'Stanford University',
    position: 'Associate Professor',
    research_fields: ['Computer Science', 'Medicine'],
    research_summary_en: `${summary}.`,
    ...overrides,
  });
}
