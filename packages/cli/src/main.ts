import { runRadarCommand } from './radar-command';

/** The `pnpm radar` process: the commands (radar-command.ts) on this process's environment and streams. */
process.exitCode = await runRadarCommand(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
