/**
 * `pnpm bench:quality [file.csv]`: precision@20 of the active embedder and of a plain tf-idf cosine
 * baseline on the labelled dev set (default <shared fixtures>/eval/arxiv_cs_4class_balanced_800.csv, where the
 * shared fixtures are ../shared/fixtures or RADAR_SHARED_FIXTURES;
 * columns title, summary, category). Each paper's title and abstract is the profile, every other paper
 * is ranked, relevant means same category. Then a simulated reader who favourites and dismisses papers for
 * three rounds: precision@20 per round with and without the learned profile. Record results in
 * docs/benchmarks.md.
 */
import path from 'node:path';
// Imported from the worker package, where its dependencies resolve (the repository root has none).
import { runQualityBenchmark } from '../packages/ai/src/quality-benchmark.runner';
import { sharedFixturesDir } from '../packages/db/src/testing/fixtures';
import { runInterestBenchmark } from './quality-interests';

const args = process.argv.slice(2);
const json = args.includes('--json');
const fileArg = args.find((arg) => !arg.startsWith('--'));
const file = path.resolve(fileArg ?? path.join(sharedFixturesDir(), 'eval/arxiv_cs_4class_balanced_800.csv'));
process.exitCode = await runQualityBenchmark(file, (text) => process.stdout.write(text));
// Readers with several interests (one method table entry per ranking; see quality-interests.ts).
if (process.exitCode === 0) await runInterestBenchmark(file, (text) => process.stdout.write(text), { json });
