/**
 * `pnpm bench:start`: how soon `pnpm start` answers, and what it holds at rest. Launches the command
 * (default `pnpm start`) on one data directory, fresh for the first run (embedded mode: no DATABASE_URL
 * or REDIS_URL, no LLM), polls GET /api/health on 127.0.0.1 until it answers 200 and prints the time from
 * launch; then waits idle and prints the resident memory (RSS) of the whole process tree, sampled from
 * /proc. Runs the command `--runs` times (default 3: the first creates the database and may build, the
 * others are what an operator restarting sees). Usage: pnpm bench:start [--command "node dist/server.js"] [--runs 2] [--idle 30]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    command: { type: 'string', default: 'pnpm start' },
    runs: { type: 'string', default: '3' },
    idle: { type: 'string', default: '30' },
    port: { type: 'string', default: '3917' },
  },
});
const runs = Number(values.runs);
const idleSeconds = Number(values.idle);
const port = Number(values.port);

/** Pids of `root` and every descendant, read from /proc. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const out: number[] = [];
  const walk = (pid: number) => {
    out.push(pid);
    for (const child of children.get(pid) ?? []) walk(child);
  };
  walk(root);
  return out;
}

/** RSS in MB of each process of the tree (name -> MB), and the total. */
function treeRss(root: number): { total: number; parts: string[] } {
  let total = 0;
  const parts: string[] = [];
  for (const pid of processTree(root)) {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const name = /Name:\s+(\S+)/.exec(status)?.[1] ?? '?';
      total += kb / 1024;
      parts.push(`${name}:${pid} ${(kb / 1024).toFixed(0)} MB`);
    } catch {
      // Gone.
    }
  }
  return { total, parts };
}

async function healthy(deadlineMs: number): Promise<boolean> {
  while (Date.now() < deadlineMs) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.status === 200) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'radar-start-'));
process.stdout.write(
  `command: ${values.command}; data dir ${dataDir}; machine: ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((load) => load.toFixed(1))
    .join(' ')}, Node ${process.version}\n`,
);
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  METRICS_PORT: '0',
  HOST: '127.0.0.1',
};
for (const name of ['DATABASE_URL', 'REDIS_URL', 'TEST_DATABASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'SMTP_URL'])
  delete env[name];
try {
  for (let run = 1; run <= runs; run += 1) {
    const started = Date.now();
    const child = spawn(values.command as string, {
      shell: true,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr = (stderr + String(chunk)).slice(-4000);
    });
    const ok = await healthy(started + 180_000);
    const seconds = (Date.now() - started) / 1000;
    if (!ok) {
      process.stdout.write(`run ${run}: not healthy after 180 s\n${stderr}\n`);
    } else {
      process.stdout.write(
        `run ${run} (${run === 1 ? 'new data directory' : 'restart'}): healthy ${seconds.toFixed(2)} s after launch\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
      const rss = treeRss(child.pid as number);
      process.stdout.write(
        `  idle ${idleSeconds} s later: RSS ${rss.total.toFixed(0)} MB over the process tree (${rss.parts.join(', ')})\n`,
      );
    }
    // The server shuts down after the shell and pnpm above it: wait for every process of the tree.
    const tree = processTree(child.pid as number);
    try {
      process.kill(-(child.pid as number), 'SIGTERM');
    } catch {
      // It already ended.
    }
    while (tree.some((pid) => fs.existsSync(`/proc/${pid}`))) await new Promise((resolve) => setTimeout(resolve, 100));
  }
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
