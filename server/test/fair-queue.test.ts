import { type FakeOpenAiServer, researchProfileAnswer, startFakeOpenAi } from '@radar/ai/testing';
import { UserRepository } from '@radar/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from './test-runtime';

/**
 * The research-analysis queue is fair between users (research-profile.service.ts, fairJobPriority):
 * with a slow LLM, one account's many queued analyses must not keep another user's first analysis
 * waiting behind all of them. Through the real queue (Redis when REDIS_URL is set, else BullMQ's
 * PostgreSQL backend) and the in-process worker, with a fake LLM server that answers only when the test
 * lets it, so the order is decided by the queue and no timing is asserted.
 */

const HEAVY_USER_TASKS = 5;

/** Polls `check` until it holds; the machine may be slow, so the deadline is generous. */
async function until(check: () => boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the research-analysis queue', () => {
  let runtime: TestRuntime;
  let fake: FakeOpenAiServer;
  /** Chat requests the fake LLM holds, in arrival order, each with the function that lets it answer. */
  const held: { text: string; release: () => void }[] = [];

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.defaultChat = (body) => {
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      held.push({ text: JSON.stringify(body.messages), release });
      return { content: researchProfileAnswer(), heldUntil: gate };
    };
    runtime = await startTestRuntime({
      env: {
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: 'sk-test',
        LLM_MODEL: 'fake-chat',
        LLM_TIMEOUT_MS: '120000',
        LLM_MAX_RETRIES: '0',
        // One analysis at a time: each one is "one job's time" of the rule.
        WORKER_CONCURRENCY: '1',
      },
    });
  });
  afterAll(async () => {
    for (const request of held) request.release();
    await runtime?.stop();
    await fake?.close();
  });

  async function signUp(email: string) {
    const user = await new UserRepository(runtime.database.db).create({ email });
    return { authorization: `Bearer ${await runtime.app.signIn(user)}` };
  }

  const submit = async (headers: Record<string, string>, text: string) => {
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/research-direction/process-async/',
      headers,
      payload: { research_description: text },
    });
    expect(response.statusCode).toBe(202);
    return response.json().task_id as string;
  };

  it("takes another user's first analysis next, ahead of one account's queued ones", async () => {
    const heavy = await signUp('heavy@example.org');
    const light = await signUp('light@example.org');
    const heavyTasks: string[] = [];
    for (let i = 0; i < HEAVY_USER_TASKS; i++) {
      heavyTasks.push(await submit(heavy, `Researcher HEAVY-${i} studies graph theory and combinatorics.`));
    }
    // The heavy user's first analysis is with the LLM; the other four wait in the queue.
    await until(() => held.length === 1, "the heavy user's first analysis to reach the LLM");
    const lightTask = await submit(light, 'Researcher LIGHT studies marine biology and coral reefs.');

    // Let the LLM answer one request at a time, in the order the worker sent them.
    const order: string[] = [];
    for (let i = 0; i < HEAVY_USER_TASKS + 1; i++) {
      await until(() => held.length > i, `analysis ${i + 1} to reach the LLM`);
      const request = held[i];
      if (!request) throw new Error('no request');
      order.push(/LIGHT/.test(request.text) ? 'light' : (/HEAVY-(\d)/.exec(request.text)?.[0] ?? '?'));
      request.release();
    }

    // Before the fix the light user's analysis came last, after all five (FIFO).
    expect(order).toEqual(['HEAVY-0', 'light', 'HEAVY-1', 'HEAVY-2', 'HEAVY-3', 'HEAVY-4']);
    const tasks = [...heavyTasks.map((id) => ({ headers: heavy, id })), { headers: light, id: lightTask }];
    for (const { headers, id } of tasks) {
      let status = '';
      const deadline = Date.now() + 60_000;
      while (status !== 'completed' && Date.now() < deadline) {
        const response = await runtime.app.inject({ method: 'GET', url: `/api/auth/tasks/${id}/status/`, headers });
        status = response.json().status;
        if (status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe('completed');
    }
  });
});
