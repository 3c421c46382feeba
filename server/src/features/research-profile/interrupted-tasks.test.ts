import { RESEARCH_TASK_KIND } from '@radar/ai';
import { AsyncTaskRepository, UserRepository } from '@radar/db';
import { OWN_WORKS_TASK_KIND } from '@radar/ingest';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';

/**
 * A research task whose synchronous request died with the server, and an own-works seeding whose job is
 * gone, are failed when the server starts again, with a message saying what to do next.
 */

const runtimes: TestRuntime[] = [];

afterAll(async () => {
  // The restarted one first: it leaves the database to the first.
  for (const runtime of runtimes.reverse()) await runtime.stop();
});

describe('server start-up', () => {
  it('fails the research and own-works tasks the previous process left unfinished, with a message the dialog shows', async () => {
    const first = await startTestRuntime();
    runtimes.push(first);
    const user = await new UserRepository(first.database.db).create({ email: 'interrupted@example.org' });
    const tasks = new AsyncTaskRepository(first.database.db);
    const input = { research_description: 'Robust machine learning for medical imaging.' };
    // A synchronous `process/` request in flight when the process ended: 'processing', and no queue job.
    const cut = await tasks.create({ userId: user.id, kind: RESEARCH_TASK_KIND, input });
    await tasks.startAttempt(cut.id);
    const finished = await tasks.create({ userId: user.id, kind: RESEARCH_TASK_KIND, input });
    await tasks.startAttempt(finished.id);
    await tasks.complete(finished.id, { source: 'rules' });
    // An own-works seeding left 'processing' with no job to run it (the queue dropped it with its worker).
    const seeding = await tasks.create({ userId: user.id, kind: OWN_WORKS_TASK_KIND, input: { source: 'library' } });
    await tasks.startAttempt(seeding.id);
    await first.close();

    const restarted = await startTestRuntime({ shareWith: first });
    runtimes.push(restarted);
    const headers = { authorization: `Bearer ${await restarted.app.signIn(user)}` };
    const status = async (taskId: string) =>
      (await restarted.app.inject({ method: 'GET', url: `/api/auth/tasks/${taskId}/status/`, headers })).json();

    expect(await status(cut.id)).toMatchObject({ status: 'failed', error_message: '研究方向处理中断，请重试' });
    expect(await status(seeding.id)).toMatchObject({
      status: 'failed',
      error_message: '导入作品中断，请重新提交 ORCID iD、OpenAlex 作者编号或文献库文件',
    });
    expect((await tasks.findById(finished.id))?.status).toBe('completed');
    expect(restarted.logLines.join('\n')).toContain('interrupted tasks marked failed');
  });
});
