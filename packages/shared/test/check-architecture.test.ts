import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchTree, runLintScript, type ScratchTree } from './helpers/script-tree';

/** scripts/check-architecture.mjs (run by `pnpm lint`) on a small tree with one violation of each kind
 * (feature-import: one in server/, one in web/; repository-construction: a repository and a bundle of
 * them built in a server service; unit-test: a process started from a *.unit.test.ts). */

const check = (root: string) => runLintScript('check-architecture.mjs', root);

let scratch: ScratchTree;

const write = (file: string, content: string | object) => scratch.write(file, content);

beforeAll(async () => {
  scratch = await createScratchTree('radar-architecture-');
  const manifest = (name: string, dependencies: string[] = [], devDependencies: string[] = []) => ({
    name,
    dependencies: Object.fromEntries(dependencies.map((dep) => [dep, 'workspace:*'])),
    devDependencies: Object.fromEntries(devDependencies.map((dep) => [dep, 'workspace:*'])),
  });
  await write('packages/shared/package.json', manifest('@radar/shared'));
  await write('packages/db/package.json', manifest('@radar/db', ['@radar/shared', '@radar/jobs']));
  await write('packages/jobs/package.json', manifest('@radar/jobs', ['@radar/db'], ['@radar/shared']));
  await write('server/package.json', manifest('@radar/server', ['@radar/db', '@radar/shared']));
  await write('worker/package.json', manifest('@radar/worker', ['@radar/jobs']));
  await write('e2e/package.json', manifest('@radar/e2e', ['@radar/server']));

  // Allowed: own files, declared packages, self-imports, devDependencies in tests, e2e -> server, bench.
  await write('packages/shared/src/index.ts', "export * from './errors';\n");
  await write(
    'packages/db/src/index.ts',
    "import { x } from '@radar/shared';\nimport { y } from '@radar/db/testing';\n",
  );
  await write('packages/jobs/test/a.test.ts', "import { x } from '@radar/shared';\n");
  await write('e2e/test/app.test.ts', "import { buildApp } from '@radar/server';\n");
  await write('bench/quality.ts', "import { a } from '../packages/db/src';\nimport { b } from '../server/test/x';\n");
  await write(
    'server/src/comments.ts',
    "// import { app } from '../../worker/src/main';\nconst s = \"import x from '../../packages/db/src'\";\n",
  );

  // One violation of each kind.
  await write(
    'server/src/app.ts',
    "import { db } from '@radar/db';\n\nimport { start } from '../../worker/src/main';\n",
  );
  await write('worker/src/main.ts', "export const x = await import('../../packages/jobs/src/index');\n");
  await write(
    'packages/jobs/src/worker-app.ts',
    "import { y } from '@radar/shared';\nimport { z } from '@radar/server';\n",
  );
  await write('packages/db/src/repo.ts', "import type { T } from '@radar/ai';\n");
  // A unit test may import pure code, not a process, a database's test support or a queue.
  await write(
    'packages/jobs/test/c.unit.test.ts',
    "import { x } from '@radar/shared';\nimport { spawn } from 'node:child_process';\n",
  );
  await write('bench/web.ts', "import { paths } from '../web/src/config/paths';\n");
  // Features: own files and shared folders are fine, another feature is not (server and web alike).
  await write(
    'server/src/features/news/news.service.ts',
    "import { a } from './news.presenter';\nimport { b } from '../../plugins/auth';\nimport { c } from '../papers/paper.presenter';\n",
  );
  // Repositories: a root and a test may build one or a bundle of them (packages/db defines the bundles),
  // a service may do neither (nor may a comment count).
  await write(
    'server/src/runtime.ts',
    'const users = new UserRepository(db);\nconst ingest = createIngestRepositories(db);\n',
  );
  await write('server/test/b.test.ts', 'const users = new UserRepository(db);\n');
  await write(
    'packages/db/src/bundles.ts',
    'export const createIngestRepositories = (db) => ({ papers: new PaperRepository(db) });\n',
  );
  await write(
    'server/src/features/news/news-digest.service.ts',
    '// new PaperRepository(db) in a comment\nexport class S {\n  papers = new PaperRepository(this.db);\n  ingest = createIngestRepositories(this.db);\n}\n',
  );
  await write(
    'web/src/features/news/pages/news-page.tsx',
    "import { a } from '../api/get-news';\nimport { b } from '@/components/page/page';\nimport { c } from '@/features/papers/strings';\n",
  );
});

afterAll(async () => {
  await scratch.remove();
});

describe('check-architecture', () => {
  // Starts node with TypeScript loaded: seconds on a busy machine, not the default 5.
  it('prints each violation on one line with file, line and rule, and exits 1', { timeout: 30_000 }, async () => {
    const { code, lines } = await check(scratch.root);
    expect(code).toBe(1);
    expect(lines).toEqual([
      'packages/db/src/repo.ts:1: undeclared-dependency: @radar/ai is not a workspace package',
      'packages/jobs/src/worker-app.ts:1: undeclared-dependency: @radar/shared is not in the dependencies of packages/jobs/package.json',
      'packages/jobs/src/worker-app.ts:2: app-import: @radar/jobs imports @radar/server, an entry point (move the code into a package)',
      "server/src/app.ts:3: relative-import: '../../worker/src/main' leaves server/ (worker/ is an entry point: move the code into a package)",
      "worker/src/main.ts:1: relative-import: '../../packages/jobs/src/index' leaves worker/ (import @radar/jobs instead)",
      "packages/jobs/test/c.unit.test.ts:2: unit-test: a unit test imports 'node:child_process': name it *.test.ts (an integration test)",
      "server/src/features/news/news.service.ts:3: feature-import: feature news imports feature papers ('../papers/paper.presenter'): move what both need out of features/",
      "web/src/features/news/pages/news-page.tsx:3: feature-import: feature news imports feature papers ('@/features/papers/strings'): move what both need out of features/",
      'server/src/features/news/news-digest.service.ts:3: repository-construction: new PaperRepository() outside a composition root: build it in server/src/runtime.ts, server/src/app.ts, worker/src/main.ts, packages/jobs/src/worker-app.ts or a CLI command and pass it in',
      'server/src/features/news/news-digest.service.ts:4: repository-construction: createIngestRepositories() outside a composition root: build it in server/src/runtime.ts, server/src/app.ts, worker/src/main.ts, packages/jobs/src/worker-app.ts or a CLI command and pass it in',
      "bench/web.ts:1: relative-import: '../web/src/config/paths' leaves bench/ (it is outside every package)",
      'packages/jobs/package.json:4: package-cycle: @radar/db -> @radar/jobs -> @radar/db',
      '12 import-boundary violations (rules: scripts/check-architecture.mjs)',
    ]);
  });
});
