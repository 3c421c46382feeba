import type { DatabaseHandle, HealthRepository } from '@radar/db';
import type { AppQueue } from '@radar/jobs';
import type { Mailer } from '@radar/mail';
import type { HealthResponse } from '@radar/shared';

const CHECK_TIMEOUT_MS = 3_000;

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)),
      CHECK_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface HealthServiceDeps {
  version: string;
  /** Which database this is ('embedded' or 'external'). */
  databaseMode: DatabaseHandle['mode'];
  health: HealthRepository;
  /** Any queue of the app: answering a count proves the queue backend is reachable. */
  probeQueue: Pick<AppQueue<unknown>, 'getJobCounts'>;
  queueBackend: 'redis' | 'postgres';
  workerInProcess: boolean;
  mailer: Mailer;
}

export class HealthService {
  constructor(private readonly deps: HealthServiceDeps) {}

  /**
   * Usable means the database and the queue answer; mail trouble degrades but does not stop the app.
   * Versions are for operators only: to anyone else they are a list of known vulnerabilities to try.
   */
  async check(options: { includeVersions: boolean }): Promise<HealthResponse> {
    const [checked, queue, mail] = await Promise.all([this.checkDatabase(), this.checkQueue(), this.checkMail()]);
    const usable = checked.status === 'ok' && queue.status === 'ok';
    const { server_version, pgvector_version, ...database } = checked;
    return {
      status: !usable ? 'unavailable' : mail.status === 'ok' ? 'ok' : 'degraded',
      ...(options.includeVersions ? { version: this.deps.version } : {}),
      mode: this.deps.databaseMode,
      database: options.includeVersions ? checked : database,
      queue,
      mail,
    };
  }

  private async checkDatabase(): Promise<HealthResponse['database']> {
    try {
      const status = await withTimeout(this.deps.health.getStatus(), 'the database');
      return { status: 'ok', server_version: status.serverVersion, pgvector_version: status.pgvectorVersion };
    } catch (error) {
      return { status: 'error', error: (error as Error).message };
    }
  }

  private async checkQueue(): Promise<HealthResponse['queue']> {
    const base = {
      backend: this.deps.queueBackend,
      worker: this.deps.workerInProcess ? 'in-process' : 'separate',
    } as const;
    try {
      await withTimeout(this.deps.probeQueue.getJobCounts('waiting'), 'the queue backend');
      return { status: 'ok', ...base };
    } catch (error) {
      return { status: 'error', ...base, error: (error as Error).message };
    }
  }

  private async checkMail(): Promise<HealthResponse['mail']> {
    const status = await this.deps.mailer.check();
    return status.ok
      ? { status: 'ok', transport: status.transport }
      : { status: 'error', transport: status.transport, ...(status.error ? { error: status.error } : {}) };
  }
}
