import type { AppConfig } from '@radar/shared/server';
import { parseCommandLine, UsageError } from '../command-line';
import { type IngestPlan, planIngestCommand } from './ingest.command';

/**
 *   sources [list] [--json]          the configured sources (`sources` alone is `sources list`)
 *   sources run <name> [--since DATE] a source now, as `ingest <name>` (with its progress bar)
 */

export type SourcesPlan = { action: 'list'; json: boolean } | { action: 'run'; ingest: IngestPlan };

const USAGE = 'usage: pnpm radar sources [list [--json] | run <source name> [--since YYYY-MM-DD]]';

/** Checks the command line (and for `run`, the source and the sources file) before the database is opened. */
export async function planSourcesCommand(config: AppConfig, args: string[]): Promise<SourcesPlan> {
  const { positionals, values } = parseCommandLine(args, {
    usage: USAGE,
    options: { json: { type: 'boolean' }, since: { type: 'string' } },
    positionals: { min: 0, max: 2 },
  });
  const [action = 'list', name] = positionals;
  if (action === 'list') {
    if (name !== undefined || values.since !== undefined) throw new UsageError(USAGE);
    return { action: 'list', json: values.json === true };
  }
  if (action === 'run') {
    if (name === undefined) throw new UsageError(USAGE);
    if (values.json) throw new UsageError('--json is for sources list');
    const since = values.since === undefined ? [] : ['--since', values.since];
    return { action: 'run', ingest: await planIngestCommand(config, [name, ...since]) };
  }
  throw new UsageError(USAGE);
}
