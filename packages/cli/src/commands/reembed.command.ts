import { createEmbeddingModels, describeModel, type EmbeddingModels, type ReembedProgress } from '@radar/ai';
import { type AiRepositories, createAiRepositories, type DatabaseHandle } from '@radar/db';
import type { AppConfig } from '@radar/shared/server';
import cliProgress from 'cli-progress';
import { parseCommandLine } from '../command-line';

/**
 * `pnpm radar reembed [--refit]`: brings every stored vector (user profiles, papers, news) onto the
 * active embedding model, with a progress bar. It does the same work as the worker's background
 * `maintain` job (activate the configured model, refit the built-in model when due or with --refit,
 * re-embed rows whose vector is missing or from another model), in this process, so it also works
 * when no worker runs. Batches are committed as they go: an interrupted run continues where it stopped.
 * `pnpm radar ingest` and `demo` run the same steps after storing content when no worker runs.
 */
export function parseReembedArgs(args: string[]): { refit: boolean } {
  const { values } = parseCommandLine(args, {
    usage: 'usage: pnpm radar reembed [--refit]',
    options: { refit: { type: 'boolean' } },
    positionals: { min: 0, max: 0 },
  });
  return { refit: values.refit === true };
}

// One bundle per database a command opened, so createEmbeddingModels gives every step of the command
// (ingest, then its re-embedding) the same manager, whose fitted models are loaded once.
const aiRepositoriesByDatabase = new WeakMap<DatabaseHandle, AiRepositories>();

/** The embedding models over a command's database (this command is its run's composition root). */
export function embeddingModelsOf(config: AppConfig, database: DatabaseHandle): EmbeddingModels {
  let repositories = aiRepositoriesByDatabase.get(database);
  if (!repositories) {
    repositories = createAiRepositories(database.db);
    aiRepositoriesByDatabase.set(database, repositories);
  }
  return createEmbeddingModels(config, repositories);
}

export async function runReembed(
  config: AppConfig,
  database: DatabaseHandle,
  options: { refit: boolean },
  out: (line: string) => void,
): Promise<void> {
  const models = embeddingModelsOf(config, database);

  const { model: configured, switched } = await models.syncWithConfig();
  if (switched) out(`activated the configured embedding model: ${describeModel(configured)}`);
  const fitStarted = Date.now();
  const refit = await models.refitIfDue({ force: options.refit });
  const fitSeconds = ((Date.now() - fitStarted) / 1000).toFixed(1);
  out(
    refit.refitted ? `refitted the built-in model (${refit.reason}) in ${fitSeconds} s` : `no refit: ${refit.reason}`,
  );

  const { model, pending } = await models.countPending();
  const total = pending.users + pending.papers + pending.news;
  out(`active model: ${describeModel(model)}`);
  out(`to embed:     ${pending.users} user profiles, ${pending.papers} papers, ${pending.news} news items`);
  if (total === 0) {
    out('every stored vector is on the active model');
    return;
  }

  const bar = new cliProgress.SingleBar(
    { format: 're-embedding [{bar}] {percentage}% | {value}/{total} | {rate} a second | {target}', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  const done: Record<ReembedProgress['target'], number> = { users: 0, papers: 0, news: 0 };
  bar.start(total, 0, { target: 'users', rate: 0 });
  const started = Date.now();
  try {
    const result = await models.reembedStale({
      onProgress: (progress) => {
        done[progress.target] = progress.done;
        bar.setTotal(Math.max(total, done.users + done.papers + done.news));
        const count = done.users + done.papers + done.news;
        const seconds = (Date.now() - started) / 1000;
        bar.update(count, { target: progress.target, rate: seconds > 0 ? Math.round(count / seconds) : 0 });
      },
    });
    bar.stop();
    const { users, papers, news } = result.embedded;
    out(
      `embedded ${users} user profiles, ${papers} papers, ${news} news items with ${describeModel(result.model)} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const failed = result.failed.users + result.failed.papers + result.failed.news;
    if (failed > 0) out(`${failed} items could not be embedded (recorded in the ingest rejects as "reembed")`);
  } catch (error) {
    bar.stop();
    throw error;
  }
}
