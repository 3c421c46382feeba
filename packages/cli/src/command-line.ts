import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ActionableError } from '@radar/shared/server';

/** A wrong command line: printed as one line, like every operator-fixable error. */
export class UsageError extends ActionableError {
  override name = 'UsageError';
}

type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

export interface CommandLine<O extends OptionsConfig> {
  /** One line, e.g. `usage: pnpm radar demo [--remove]`: the answer to wrong positionals. */
  usage: string;
  options: O;
  /** How many positional arguments the command takes. */
  positionals: { min: number; max: number };
}

/** Node's parseArgs messages are long (and some span lines); ours name the option and what is wrong. */
function usageErrorFrom(error: unknown, options: OptionsConfig): Error {
  const { code, message } = error as { code?: string; message?: string };
  const option = /'(-[^' ]*)/.exec(message ?? '')?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    const known = Object.keys(options).map((name) => `--${name}`);
    return new UsageError(
      `unknown option ${option} (${known.length ? `expected ${known.join(', ')}` : 'this command takes no options'})`,
    );
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    return new UsageError(
      /does not take an argument/.test(message ?? '') ? `${option} takes no value` : `${option} needs a value`,
    );
  }
  return error as Error;
}

/**
 * Parses a command's arguments strictly with node:util parseArgs: an unknown option, an option
 * without its value, a value given to a switch, or the wrong number of positionals is a UsageError
 * (one line). A string option given twice keeps the last value, as shells users expect.
 */
export function parseCommandLine<const O extends OptionsConfig>(args: string[], spec: CommandLine<O>) {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args, options: spec.options, strict: true, allowPositionals: true });
  } catch (error) {
    throw usageErrorFrom(error, spec.options);
  }
  for (const [name, value] of Object.entries(parsed.values)) {
    if (value === '') throw new UsageError(`--${name} needs a value`);
  }
  const count = parsed.positionals.length;
  if (count < spec.positionals.min || count > spec.positionals.max) throw new UsageError(spec.usage);
  return parsed;
}
