// `pnpm dev`: the API with reload on change (tsx watch) and the web app with hot module replacement
// (vite, port 5173, proxying API paths to the API on PORT or 3000). Ctrl-C stops both.
import { spawn } from 'node:child_process';

const children = [
  ['api', process.execPath, ['--import', 'tsx', '--watch', '--watch-preserve-output', 'server/src/main.ts']],
  ['web', 'pnpm', ['--filter', '@radar/web', 'exec', 'vite', '--clearScreen', 'false']],
].map(([name, command, args]) => {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const prefix = (stream, target) =>
    stream.on('data', (chunk) => {
      for (const line of String(chunk).split('\n').filter(Boolean)) target.write(`[${name}] ${line}\n`);
    });
  prefix(child.stdout, process.stdout);
  prefix(child.stderr, process.stderr);
  child.on('exit', (code) => {
    process.stderr.write(`[${name}] exited with ${code}\n`);
    stopAll(code ?? 1);
  });
  return child;
});

process.stdout.write('[dev] open http://localhost:5173 (web, hot reload); the API listens on PORT (default 3000)\n');

let stopping = false;
function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 1500).unref();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));
