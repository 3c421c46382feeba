import type { AppConfig } from '@radar/shared/server';
import { parseCommandLine, UsageError } from '../command-line';
import { type IngestPlan, planIngestCommand } from './ingest.command';

/**
 *   sources [list] [--json]          the configured sources (`sources` alone is `sources list`)
 *   sources run <name> [--since DATE] a source now, as `ingest <name>` (with its progress bar)
 */

export type SourcesPlan = { action: 'list'; json: boolean } | { action: 'run'; ingest: IngestPlan };

const USAGE = 'usage: pnpm radar sources [list [--json] | run <source name> [--since YYYY-MM-DD]]';

/** The command line of `sources` alone (nothing read): a mistake is a UsageError. */
export function parseSourcesArgs(
  args: string[],
): { action: 'list'; json: boolean } | { action: 'run'; name: string; since: string | undefined } {
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
    return { action: 'run', name, since: values.since };
  }
  throw new UsageError(USAGE);
}

/** Checks the command line (and for `run`, the source and the sources file) before the database is opened. */
export async function planSourcesCommand(config: AppConfig, args: string[]): Promise<SourcesPlan> {
  const parsed = parseSourcesArgs(args);
  if (parsed.action === 'list') return parsed;
  const since = parsed.since === undefined ? [] : ['--since', parsed.since];
  return { action: 'run', ingest: await planIngestCommand(config, [parsed.name, ...since]) };
}
