/**
 * `pnpm bench:quality [file.csv]`: precision@20 of the active embedder and of a plain tf-idf cosine
 * baseline on the labelled dev set (default <shared fixtures>/eval/arxiv_cs_4class_balanced_800.csv, where the
 * shared fixtures are ../shared/fixtures or RADAR_SHARED_FIXTURES;
 * columns title, summary, category). Each paper's title and abstract is the profile, every other paper
 * is ranked, relevant means same category. Then a simulated reader who favourites and dismisses papers for
 * three rounds: precision@20 per round with and without the learned profile; and readers with 2-3
 * interests who rate what they see for 5 rounds (plain, Rocchio, the classifier; each interest's share
 * by label and by the interest a card was drawn for), and whether a calibrated score predicts a 👍
 * better than the raw cosine. `--json` prints only the latter as JSON: method -> precision@20 per round.
 * Record results in docs/benchmarks.md.
 */
import path from 'node:path';
import { sharedFixturesDir } from '../packages/db/src/testing/fixtures';
// Imported from the worker package, where its dependencies resolve (the repository root has none).
import { runQualityBenchmark } from './lib/quality-runner';
import { runInterestBenchmark } from './quality-interests';

const json = process.argv.includes('--json');
const fileArgument = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
const file = path.resolve(fileArgument ?? path.join(sharedFixturesDir(), 'eval/arxiv_cs_4class_balanced_800.csv'));
process.exitCode = await runQualityBenchmark(file, (text) => process.stdout.write(text), { json });
// Readers with several interests (one method table entry per ranking; see quality-interests.ts).
if (process.exitCode === 0) await runInterestBenchmark(file, (text) => process.stdout.write(text), { json });
