/**
 * `pnpm bench:bilingual [dir | file.jsonl]`: Chinese text against English research with the built-in model.
 * Default: the set under bench/bilingual-set/ (Chinese homepages of researchers in 21 fields, the
 * English papers they wrote, Chinese search terms with their English): P@20 of the offline English
 * draft as the product embeds it, of the draft alone, of the Chinese text, and of the paired paper (the
 * ceiling); search recall of the English query's results. An explicit .jsonl file runs the older
 * DayDayArXiv set (`<shared fixtures>/recorded/bilingual/daydayarxiv-bilingual.jsonl`, made by
 * bench/extract-bilingual-set.ts). Record results in docs/benchmarks.md.
 */
import fs from 'node:fs';
import path from 'node:path';
// Imported from the ai package, where its dependencies resolve (the repository root has none).
import { runBilingualBenchmark, runBilingualSetBenchmark } from './lib/bilingual-set';

const target = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, 'bilingual-set'));
const write = (text: string) => process.stdout.write(text);
process.exitCode =
  fs.existsSync(target) && fs.statSync(target).isFile()
    ? await runBilingualBenchmark(target, write)
    : await runBilingualSetBenchmark(target, write);
