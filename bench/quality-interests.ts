/**
 * The "interests" part of `pnpm bench:quality`: simulated readers with 2-3 interests (categories of the
 * labelled set), five rounds of ratings; precision@20 per round and each interest's share of the top 20,
 * for Rocchio over one profile and Rocchio with interests (INTEREST_METHODS in
 * bench/lib/interests-benchmark.ts, where a classifier ranking the summary's list is one
 * more entry). Then whether a calibrated score predicts a 👍 better than the raw cosine
 * (measureLikeCalibration). The built-in model is fitted on the set, as bench:quality does.
 */
import { fitLsaModel, LsaEmbedder, lsaDimensionFor } from '../packages/ai/src/builtin/lsa-model';
import { readLabelledCsv } from '../packages/ai/src/testing/labelled-set';
import { INTEREST_METHODS, type InterestSimulationResult, simulateInterestReaders } from './lib/interests-benchmark';
import { type CalibrationResult, measureLikeCalibration } from './lib/like-calibration';

export async function runInterestBenchmark(
  file: string,
  write: (text: string) => void,
  options: { json?: boolean } = {},
): Promise<InterestSimulationResult[]> {
  const documents = await readLabelledCsv(file);
  const labels = documents.map((d) => d.label);
  const texts = documents.map((d) => d.text);
  const state = await fitLsaModel(texts, { dimension: lsaDimensionFor(documents.length) });
  const lsa = new LsaEmbedder(state);
  const vectors = texts.map((text) => lsa.embedOne(text));
  const results = INTEREST_METHODS.map((method) => simulateInterestReaders(labels, vectors, method));
  const percent = (value: number) => `${(value * 100).toFixed(0)}%`.padStart(4);
  write(
    `\nreaders with interests: ${results[0]?.readers ?? 0} readers with 2 or 3 interests (categories, equal quotas), ` +
      `5 rounds rating the top 20 (relevant: any of their categories; favourite relevant, dismiss up to 5 others)\n`,
  );
  for (const result of results) {
    write(`${result.method}\n`);
    write(`  precision@20 by round   ${result.precision.map((v) => v.toFixed(4)).join('  ')}\n`);
    write(
      `  unseen papers on page   ${result.unseen
        .map((v) => v.toFixed(1).padEnd(6))
        .join('  ')
        .trimEnd()}\n`,
    );
    write(`  precision of unseen     ${result.unseenPrecision.map((v) => v.toFixed(4)).join('  ')}\n`);
    for (const slot of [0, 1, 2]) {
      const name = slot === 0 ? 'summary' : `interest ${slot + 1}`;
      write(
        `  share of ${name.padEnd(13)} ${result.shares.map((round) => percent(round[slot] as number)).join('    ')}\n`,
      );
    }
    write(
      `  readers with an interest under half its quota, by label           ${result.belowHalfQuota.map(percent).join('  ')}\n`,
    );
    write(
      `  readers with an interest under half its quota, by served interest ${result.belowHalfQuotaServed.map(percent).join('  ')}\n`,
    );
  }
  write(
    '  (by served interest, an interest falls under half its quota only when it runs out of candidates; ' +
      'by label, when the cards it drew are of another category; unseen: papers not on an earlier page, ' +
      'precision of unseen out of 20: favourites stay in the list, as in the product)\n',
  );
  const calibration = measureLikeCalibration(labels, vectors);
  writeCalibration(calibration, write);
  if (options.json) write(`${JSON.stringify({ interests: results, calibration })}\n`);
  return results;
}

function writeCalibration(result: CalibrationResult, write: (text: string) => void): void {
  write(
    `\nlike probability: ${result.readers} readers (2-3 interests, classifier order, every shown paper rated), ` +
      `${result.ratings} held-out ratings (each page scored from the earlier pages' ratings)\n`,
  );
  write(`  ${'predictor'.padEnd(30)} log-loss   Brier    AUC   AUC within a page\n`);
  for (const row of result.rows)
    write(
      `  ${row.predictor.padEnd(30)} ${row.logLoss.toFixed(4)}   ${row.brier.toFixed(4)}   ${row.auc.toFixed(4)}   ${row.aucWithinPage.toFixed(4)}\n`,
    );
}
