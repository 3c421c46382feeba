import fs from 'node:fs';
import path from 'node:path';
import {
  type DatabaseHandle,
  findLiveLockHolder,
  HealthRepository,
  openDatabase,
  SourceStateRepository,
} from '@radar/db';
import { createQueue, createQueueConnection, forgetUserInRedis, readSourceFlow, type SourceFlow } from '@radar/jobs';
import { QUEUE_NAMES } from '@radar/shared';
import { type AppConfig, describeStartupFailure, loadConfig } from '@radar/shared/server';
import { parseCommandLine } from './command-line';
import {
  beginFileReading,
  parseDemoArgs,
  parseIngestArgs,
  parseJournalsArgs,
  planIngestCommand,
  runDemoCommand,
  runIngestCommand,
  runJournalsCommand,
  runSourcesCommand,
} from './commands/ingest.command';
import { parseMessagesArgs, runMessagesCommand } from './commands/messages.command';
import { formatTime, printJson, printTable } from './commands/output';
import { parseQueuesArgs, runQueuesCommand } from './commands/queues.command';
import { parseReembedArgs, runReembed } from './commands/reembed.command';
import { parseSourcesArgs, planSourcesCommand } from './commands/sources.command';
import { parseUsersArgs, runUsersCommand } from './commands/users.command';

/**
 * Operator commands: `pnpm radar <command>`. In embedded mode they connect to a running server
 * through its socket in DATA_DIR (PGlite is single-process), or open the database themselves when
 * no server runs.
 */

interface Command {
  summary: string;
  /**
   * Reads the command line alone, as `run` does first, and opens or reads nothing: a command line it
   * refuses (UsageError) is one `run` refuses. `checkRadarCommandLine` uses it for the commands that
   * messages and documentation name.
   */
  parse(args: string[]): unknown;
  /** Parses `args` first (parseCommandLine): a wrong command line must not open or create a database. */
  run(context: {
    config: AppConfig;
    args: string[];
    out: (line: string) => void;
    err: (line: string) => void;
    /** An answer that is not success but no failure either (nothing there): ends with this code. */
    setExitCode: (code: number) => void;
  }): Promise<void>;
}

/**
 * Embedded mode, no server holding DATA_DIR and no database files in it: nothing was ever stored
 * there. Opening the database would create an empty one (and the directory), so `status` says so
 * instead. `pgdata` is where startEmbeddedPostgres keeps PGlite's files.
 */
async function hasNoEmbeddedData(config: AppConfig): Promise<boolean> {
  if (config.databaseUrl) return false;
  if (await findLiveLockHolder(config.dataDir)) return false;
  return !fs.existsSync(path.join(config.dataDir, 'pgdata'));
}

async function withDatabase<T>(config: AppConfig, migrate: boolean, use: (db: DatabaseHandle) => Promise<T>) {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolMax: 2,
    migrate,
    attachToRunningServer: true,
  });
  try {
    return await use(database);
  } finally {
    await database.close();
  }
}

/** Per source: last run, items added in the last day and week, failures (since when, last error), next run (UTC). */
function printSourceFlow(sources: SourceFlow[], out: (line: string) => void): void {
  out('');
  if (sources.length === 0) {
    out('sources:           none has run or is scheduled');
    return;
  }
  out('sources (times UTC):');
  printTable(
    [
      ['SOURCE', 'LAST RUN', 'STATUS', 'ADDED 1D', 'ADDED 7D', 'FAILURES', 'NEXT RUN', 'FAILING SINCE / LAST ERROR'],
      ...sources.map((source) => [
        source.name,
        formatTime(source.lastRunAt),
        source.status,
        String(source.addedLastDay),
        String(source.addedLastWeek),
        String(source.consecutiveFailures),
        formatTime(source.nextRunAt),
        source.failingSince ? `${formatTime(source.failingSince)}: ${source.lastError ?? ''}`.trim() : '',
      ]),
    ],
    out,
  );
}

const STATUS_COMMAND_LINE = {
  usage: 'usage: pnpm radar status [--json]',
  options: { json: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
} as const;
const MIGRATE_COMMAND_LINE = { usage: 'usage: pnpm radar migrate', options: {}, positionals: { min: 0, max: 0 } };

const COMMANDS: Record<string, Command> = {
  status: {
    summary:
      'show the database, queue and content counts, unread messages, and per source its last run, items added in the last day and week, failures and next run [--json] (exit code 1, creating nothing, when there is no database yet: no server running and no data in DATA_DIR)',
    parse: (args) => parseCommandLine(args, STATUS_COMMAND_LINE),
    async run({ config, args, out, err, setExitCode }) {
      const { values } = parseCommandLine(args, STATUS_COMMAND_LINE);
      if (await hasNoEmbeddedData(config)) {
        err(
          `radar status: no Research Radar data at ${path.resolve(config.dataDir)} (no server running, no database there yet): start it with \`pnpm start\`, or set DATABASE_URL to use a PostgreSQL server`,
        );
        setExitCode(1);
        return;
      }
      await withDatabase(config, true, async (database) => {
        const health = new HealthRepository(database.pool);
        const [status, overview] = await Promise.all([health.getStatus(), health.getOverview()]);
        const connection = createQueueConnection({
          redisUrl: config.redisUrl,
          postgres: database.connectionConfig,
          prefix: config.queuePrefix,
        });
        const queue = createQueue<unknown>(connection, QUEUE_NAMES.maintenance);
        const ingestQueue = createQueue<unknown>(connection, QUEUE_NAMES.ingest);
        let counts: Record<string, number>;
        let sources: SourceFlow[];
        try {
          counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
          sources = await readSourceFlow(new SourceStateRepository(database.db), ingestQueue);
        } finally {
          await Promise.all([queue.close(), ingestQueue.close()]);
        }
        if (values.json === true) {
          printJson(out, {
            mode: database.mode,
            data_dir: database.mode === 'embedded' ? config.dataDir : null,
            postgresql_version: status.serverVersion,
            pgvector_version: status.pgvectorVersion ?? null,
            migrations_applied: overview.migrationsApplied,
            users: overview.users,
            papers: overview.papers,
            news_items: overview.newsItems,
            journals: overview.journals,
            embedding_models: overview.embeddingModels,
            unread_messages: overview.unreadMessages,
            queue_backend: connection.backend,
            maintenance_queue: counts,
            sources: sources.map((source) => ({
              name: source.name,
              kind: source.kind,
              status: source.status,
              last_run_at: source.lastRunAt?.toISOString() ?? null,
              last_success_at: source.lastSuccessAt?.toISOString() ?? null,
              added_last_day: source.addedLastDay,
              added_last_week: source.addedLastWeek,
              papers_last_week: source.papersLastWeek,
              news_last_week: source.newsLastWeek,
              consecutive_failures: source.consecutiveFailures,
              failing_since: source.failingSince?.toISOString() ?? null,
              last_error: source.lastError,
              next_run_at: source.nextRunAt?.toISOString() ?? null,
            })),
          });
          return;
        }
        out(
          `mode:              ${database.mode}${database.mode === 'embedded' ? ` (DATA_DIR ${config.dataDir})` : ''}`,
        );
        out(`database:          PostgreSQL ${status.serverVersion}, pgvector ${status.pgvectorVersion ?? 'MISSING'}`);
        out(`migrations:        ${overview.migrationsApplied} applied`);
        out(`users:             ${overview.users}`);
        out(`papers:            ${overview.papers}`);
        out(`news items:        ${overview.newsItems}`);
        out(`journals:          ${overview.journals}`);
        out(`embedding models:  ${overview.embeddingModels}`);
        out(
          `messages:          ${overview.unreadMessages} unread${overview.unreadMessages ? ' (read them: pnpm radar messages)' : ''}`,
        );
        out(
          `queue:             ${connection.backend}; maintenance: ${counts.waiting} waiting, ${counts.active} active, ${counts.delayed} delayed, ${counts.failed} failed`,
        );
        printSourceFlow(sources, out);
      });
    },
  },
  migrate: {
    summary: 'apply pending database migrations (the server also does this at start)',
    parse: (args) => parseCommandLine(args, MIGRATE_COMMAND_LINE),
    async run({ config, args, out }) {
      parseCommandLine(args, MIGRATE_COMMAND_LINE);
      await withDatabase(config, true, async (database) => {
        const overview = await new HealthRepository(database.pool).getOverview();
        out(`migrations up to date: ${overview.migrationsApplied} applied (${database.mode} database)`);
      });
    },
  },
  ingest: {
    summary: 'run a content source now, or import a saved file: ingest <source|kind> [--since DATE] [--file PATH]',
    parse: parseIngestArgs,
    async run({ config, args, out }) {
      // Arguments and the file are checked first: a mistake is one line and creates nothing.
      const plan = await planIngestCommand(config, args);
      // A file's first papers are read while the database opens (a new embedded one takes seconds).
      const opened = beginFileReading(plan);
      try {
        await withDatabase(config, true, (database) => runIngestCommand(config, database, plan, out, opened));
      } finally {
        opened?.close();
      }
    },
  },
  sources: {
    summary:
      'sources [list] [--json]: content sources with their schedule, last run, items added and last error; sources run <name>: run one now (as ingest)',
    parse: parseSourcesArgs,
    async run({ config, args, out }) {
      const plan = await planSourcesCommand(config, args);
      await withDatabase(config, true, (database) =>
        plan.action === 'list'
          ? runSourcesCommand(config, database, out, plan)
          : runIngestCommand(config, database, plan.ingest, out),
      );
    },
  },
  journals: {
    summary: 'journals import <file.csv> [--label NAME]: import a journal tier table (SCImago or issn,title,tier)',
    parse: parseJournalsArgs,
    async run({ config, args, out }) {
      const options = parseJournalsArgs(args);
      await withDatabase(config, true, (database) => runJournalsCommand(database, options, out));
    },
  },
  demo: {
    summary: 'load (or with --remove, delete) the built-in demo corpus: papers and news in all 21 fields',
    parse: parseDemoArgs,
    async run({ config, args, out }) {
      const options = parseDemoArgs(args);
      await withDatabase(config, true, (database) => runDemoCommand(config, database, options, out));
    },
  },
  users: {
    summary:
      'users list | show <email|id> | disable <email|id> | enable <email|id> | delete <email|id> --yes (the person and all their data) [--json]',
    parse: parseUsersArgs,
    async run({ config, args, out, err, setExitCode }) {
      const plan = parseUsersArgs(args);
      await withDatabase(config, true, (database) => {
        const queues = createQueueConnection({
          redisUrl: config.redisUrl,
          postgres: database.connectionConfig,
          prefix: config.queuePrefix,
        });
        const forgetInRedis = (userId: string) => forgetUserInRedis(queues, userId);
        return runUsersCommand(database, plan, { out, err, setExitCode, forgetInRedis });
      });
    },
  },
  messages: {
    summary:
      'messages [list] [--all] [--limit N]: unread feedback and contact-form messages, newest first (--all: read ones too); messages read <id>... | --all: mark them read [--json]',
    parse: parseMessagesArgs,
    async run({ config, args, out, err, setExitCode }) {
      const plan = parseMessagesArgs(args);
      await withDatabase(config, true, (database) => runMessagesCommand(database, plan, { out, err, setExitCode }));
    },
  },
  queues: {
    summary:
      'queues status | retry-failed [<queue>] | clean [<queue>] [--grace 1d]: job counts, retry failed jobs, remove finished ones [--json]',
    parse: parseQueuesArgs,
    async run({ config, args, out }) {
      const plan = parseQueuesArgs(args);
      await withDatabase(config, true, (database) => runQueuesCommand(config, database, plan, out));
    },
  },
  reembed: {
    summary:
      'bring every stored vector onto the active embedding model, with progress (--refit: refit the built-in model first)',
    parse: parseReembedArgs,
    async run({ config, args, out }) {
      const options = parseReembedArgs(args);
      await withDatabase(config, true, (database) => runReembed(config, database, options, out));
    },
  },
};

const isHelp = (name: string | undefined): name is undefined | 'help' | '--help' | '-h' =>
  !name || name === 'help' || name === '--help' || name === '-h';

/**
 * Whether `pnpm radar <argv>` is a command line the CLI accepts, judged by the command table and each
 * command's own parser, without running anything: undefined when it is, else why not (one line).
 */
export function checkRadarCommandLine(argv: string[]): string | undefined {
  const [name, ...args] = argv;
  if (isHelp(name)) return args.length ? 'help takes no arguments' : undefined;
  const command = COMMANDS[name ?? ''];
  if (!command) return `unknown command "${name}"`;
  try {
    command.parse(args);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

function printHelp(out: (line: string) => void): void {
  out('Usage: pnpm radar <command>');
  out('');
  for (const [name, command] of Object.entries(COMMANDS)) out(`  ${name.padEnd(12)} ${command.summary}`);
}

/** Where a command reads its configuration and writes its lines: the process's own in main.ts. */
export interface CommandIo {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Runs `pnpm radar <argv>` and returns the exit code; errors are printed in one line, never thrown. */
export async function runRadarCommand(argv: string[], { env, out, err }: CommandIo): Promise<number> {
  const [name, ...args] = argv;
  if (isHelp(name)) {
    printHelp(out);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    err(`Unknown command "${name}".`);
    printHelp(err);
    return 2;
  }
  let exitCode = 0;
  const setExitCode = (code: number) => {
    exitCode = code;
  };
  try {
    await command.run({ config: loadConfig(env), args, out, err, setExitCode });
    return exitCode;
  } catch (error) {
    err(`radar ${name} failed: ${describeStartupFailure(error)}`);
    return 1;
  }
}
