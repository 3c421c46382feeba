/**
 * `node --import tsx bench/cpu-profile-summary.ts FILE.cpuprofile [--top 30]`: where a V8 CPU profile's
 * time went, by self time: per package (node_modules), per source folder of ours, PGlite's WebAssembly,
 * the garbage collector and native calls (writev, fstat, ...), then per function. For profiles written by
 * `bench:recommend --cpu-profile DIR` or `node --cpu-prof`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '30' } },
  allowPositionals: true,
});
const file = positionals[0];
if (!file) {
  process.stderr.write('usage: node --import tsx bench/cpu-profile-summary.ts FILE.cpuprofile [--top 30]\n');
  process.exit(2);
}
const TOP = Number(values.top) || 30;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const repoRoot = path.resolve(import.meta.dirname, '..');

/** The package (pnpm store folder name without the version), our folder, or the native/VM entry. */
function groupOf({ url, functionName }: ProfileNode['callFrame']): string {
  if (!url) return functionName; // (garbage collector), (idle), writev, ...
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite)';
  const store = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (store?.[1]) return store[1];
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  const local = url.replace(/^file:\/\//, '');
  return path.relative(repoRoot, local).split(path.sep).slice(0, 3).join('/');
}

const byGroup = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const micros = profile.timeDeltas[i] ?? 0;
  const node = nodes.get(id);
  if (!node) return;
  total += micros;
  const group = groupOf(node.callFrame);
  byGroup.set(group, (byGroup.get(group) ?? 0) + micros);
  const where = node.callFrame.url ? `${group}:${node.callFrame.lineNumber + 1}` : '';
  const name = `${node.callFrame.functionName || '(anonymous)'} ${where}`.trim();
  byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
});

const print = (title: string, entries: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [name, micros] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    const share = ((100 * micros) / total).toFixed(1);
    process.stdout.write(`${(micros / 1000).toFixed(0).padStart(8)} ms ${share.padStart(5)} %  ${name}\n`);
  }
};
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s sampled\n`);
print('self time by package or folder', byGroup);
print('self time by function', byFunction);
