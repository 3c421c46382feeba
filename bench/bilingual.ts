/**
 * `pnpm bench:bilingual [file.jsonl]`: precision@20 of a Chinese research text as the profile against an
 * English corpus with the built-in model: no glossing, offline glossing, and the English text of the same
 * items (the ceiling); and Chinese titles as search queries. Default set:
 * <shared fixtures>/recorded/bilingual/daydayarxiv-bilingual.jsonl (not redistributable; its README says
 * where it comes from). Record results in docs/benchmarks.md.
 */
import path from 'node:path';
// Imported from the ai package, where its dependencies resolve (the repository root has none).
import { runBilingualBenchmark } from '../packages/ai/src/bilingual-benchmark';
import { sharedFixturesDir } from '../packages/db/src/testing/fixtures';

const file = path.resolve(
  process.argv[2] ?? path.join(sharedFixturesDir(), 'recorded/bilingual/daydayarxiv-bilingual.jsonl'),
);
process.exitCode = await runBilingualBenchmark(file, (text) => process.stdout.write(text));
