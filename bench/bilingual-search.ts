/**
 * `pnpm bench:bilingual` (second part): does a Chinese search keyword find what its English finds? For
 * each search pair of bench/bilingual-set/*.jsonl (a Chinese keyword and the English papers write), the
 * set's English papers are searched on a real database (PostgreSQL with TEST_DATABASE_URL, else
 * in-memory PGlite) through the product's article search and news keyword search, once with the
 * English keyword and once with the Chinese one (glossed by the one glossary, englishSearchPhrases);
 * recall = the share of the English query's top 20 the Chinese query also finds. Target >= 0.9 on the
 * held-out keywords (`heldout`: written after the glossary by someone who had not seen it; the first
 * five of each field were partly given to the glossary's writers as examples, so their figure flatters).
 */
import os from 'node:os';
import path from 'node:path';
import { englishSearchPhrases } from '../packages/ai/src/offline/chinese-gloss';
import {
  ArticleRepository,
  NewsRepository,
  NewsSearchRepository,
  PaperRepository,
  UserRepository,
} from '../packages/db/src';
import { createTestDatabase } from '../packages/db/src/testing';
import { readSetDirectory } from './lib/bilingual-set';

const TOP = 20;
const setDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, 'bilingual-set'));
const lines = readSetDirectory(setDir);
const papers = lines.filter((line) => line.kind === 'paper');
const pairs = lines.filter((line) => line.kind === 'search');

const database = await createTestDatabase();
try {
  const db = database.db;
  const storedPapers = await new PaperRepository(db).insertMany(
    papers.map((paper) => ({
      title: paper.title ?? '',
      abstract: paper.abstract ?? '',
      source: 'bench',
      url: `https://bench.example.org/${paper.id}`,
    })),
  );
  const storedNews = await new NewsRepository(db).insertMany(
    papers.map((paper) => ({
      title: paper.title ?? '',
      content: paper.abstract ?? '',
      url: `https://bench.example.org/news/${paper.id}`,
      urlNormalized: `bench.example.org/news/${paper.id}`,
      source: 'bench',
    })),
  );
  // The field of each stored row, for the precision of a query's top 20 (insertMany returns rows in order).
  const fieldOf = new Map<string, string>();
  for (const [i, row] of storedPapers.entries()) fieldOf.set(`article:${row.id}`, papers[i]?.field ?? '');
  for (const [i, row] of storedNews.entries()) fieldOf.set(`news:${row.id}`, papers[i]?.field ?? '');
  const user = await new UserRepository(db).create({ email: 'bench@example.org' });
  const articles = new ArticleRepository(db);
  const news = new NewsSearchRepository(db);
  const articleIds = async (keyword: string, limit: number) =>
    (
      await articles.search({ keywords: [keyword], english: englishSearchPhrases, userId: user.id, limit, offset: 0 })
    ).papers.map((paper) => paper.id);
  const newsIds = async (keyword: string, limit: number) =>
    (await news.keywordSearch({ keywords: [keyword], english: englishSearchPhrases, filters: {}, limit, offset: 0 }))
      .ids;

  process.stdout.write(
    `${setDir}\n${papers.length} English papers (as papers and as news items), ${pairs.length} Chinese keywords; ${database.engine}\n`,
  );
  process.stdout.write(`machine: ${os.cpus().length} cores, ${os.type()} ${os.release()}, Node ${process.version}\n\n`);
  for (const [channel, kind, search] of [
    ['article search', 'article', articleIds],
    ['news keyword search', 'news', newsIds],
  ] as const) {
    const recalls: { pair: (typeof pairs)[number]; recall: number }[] = [];
    // Precision: the share of a query's top 20 in the keyword's field, English and Chinese query alike
    // (a composed or widened Chinese query must not find far more than its English).
    const inField = { english: 0, chinese: 0, englishShown: 0, chineseShown: 0 };
    for (const pair of pairs) {
      const english = await search(pair.en ?? '', TOP);
      if (english.length === 0) continue;
      const chineseRanked = await search(pair.zh ?? '', 1000);
      const chinese = new Set(chineseRanked);
      recalls.push({ pair, recall: english.filter((id) => chinese.has(id)).length / english.length });
      if (!pair.heldout) continue;
      const fieldShare = (ids: number[]) => ids.filter((id) => fieldOf.get(`${kind}:${id}`) === pair.field).length;
      inField.english += fieldShare(english);
      inField.englishShown += english.length;
      inField.chinese += fieldShare(chineseRanked.slice(0, TOP));
      inField.chineseShown += Math.min(TOP, chineseRanked.length);
      const offField = Math.min(TOP, chineseRanked.length) - fieldShare(chineseRanked.slice(0, TOP));
      if (offField > 0 && process.env.BENCH_VERBOSE) process.stdout.write(`  off-field ${pair.zh}: ${offField}\n`);
    }
    const mean = (list: { recall: number }[]) =>
      list.reduce((sum, item) => sum + item.recall, 0) / Math.max(1, list.length);
    const heldout = recalls.filter((item) => item.pair.heldout);
    const earlier = recalls.filter((item) => !item.pair.heldout);
    process.stdout.write(
      `${channel}: recall of the English top ${TOP}: all ${mean(recalls).toFixed(3)} (${recalls.length} keywords); ` +
        `held-out keywords ${mean(heldout).toFixed(3)} (${heldout.length}); keywords written with the set ${mean(earlier).toFixed(3)} (${earlier.length}) ` +
        `(target 0.9 on the held-out keywords: ${heldout.length > 0 && mean(heldout) >= 0.9 ? 'met' : 'NOT met'})\n` +
        `  held-out keywords, share of the top ${TOP} in the keyword's field: English ${(inField.english / Math.max(1, inField.englishShown)).toFixed(3)}, ` +
        `Chinese ${(inField.chinese / Math.max(1, inField.chineseShown)).toFixed(3)} (${inField.chineseShown} results shown for the Chinese keywords, ${inField.englishShown} for the English)\n`,
    );
    for (const { pair, recall } of recalls) {
      if (recall >= 1) continue;
      process.stdout.write(
        `  ${pair.heldout ? 'held-out ' : ''}${pair.zh} (${pair.en}): ${recall.toFixed(2)} -> ${JSON.stringify(englishSearchPhrases(pair.zh ?? ''))}\n`,
      );
    }
  }
} finally {
  await database.close();
}
