import type { AddressInfo } from 'node:net';
import { UserRepository } from '@radar/db';
import { loadConfig } from '@radar/shared/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetLinkFrom, SmtpSink } from '../../../test/smtp-sink';
import { startTestRuntime, type TestRuntime } from '../../../test/test-runtime';
import { WebBaseUrl } from '../../web-base-url';

/**
 * Links in mails (password reset here; alert unsubscribe and /papers use the same address) point at the
 * server itself when WEB_BASE_URL is unset: at the port it listens on, not at localhost:3000. Here the
 * port is 0, known only once the server listens, and the link is followed to prove it reaches it.
 */

let runtime: TestRuntime;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await new SmtpSink().start();
  // No in-process worker: the mails go out from the requests, nothing here runs a job, and the worker's
  // start is most of a runtime's boot.
  runtime = await startTestRuntime({ env: { SMTP_URL: sink.url, HOST: '127.0.0.1', PORT: '0', RUN_WORKER: 'false' } });
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await runtime?.stop();
  await sink?.stop();
});

describe('mail links without WEB_BASE_URL', () => {
  it('use the port the server listens on, and open the web app there', async () => {
    const { port } = runtime.app.server.address() as AddressInfo;
    await new UserRepository(runtime.database.db).create({
      email: 'links@example.org',
      passwordHash: 'unused',
      isEmailVerified: true,
    });
    const response = await runtime.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password/',
      payload: { email: 'links@example.org' },
    });
    expect(response.statusCode).toBe(200);

    const link = resetLinkFrom(await sink.waitForMail('links@example.org'));
    expect(link.origin).toBe(`http://127.0.0.1:${port}`);
    expect(link.pathname).toBe('/reset-password');
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('keep WEB_BASE_URL when it is set, whatever the port', () => {
    const configured = new WebBaseUrl(loadConfig({ WEB_BASE_URL: 'https://radar.example.edu/', PORT: '0' }));
    configured.listeningOn(41234);
    expect(configured.current()).toBe('https://radar.example.edu');

    const derived = new WebBaseUrl(loadConfig({ PORT: '8080' }));
    expect(derived.current()).toBe('http://localhost:8080');
    derived.listeningOn(41234);
    expect(derived.current()).toBe('http://localhost:41234');
  });
});
