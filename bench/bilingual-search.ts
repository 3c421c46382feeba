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
import { readSetDirectory } from '../packages/ai/src/bilingual-benchmark';
import { englishSearchPhrases } from '../packages/ai/src/offline/chinese-gloss';
import {
  ArticleRepository,
  NewsRepository,
  NewsSearchRepository,
  PaperRepository,
  UserRepository,
} from '../packages/db/src';
import { createTestDatabase } from '../packages/db/src/testing';

const TOP = 20;
const setDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, 'bilingual-set'));
const lines = readSetDirectory(setDir);
const papers = lines.filter((line) => line.kind === 'paper');
const pairs = lines.filter((line) => line.kind === 'search');

const database = await createTestDatabase();
try {
  const db = database.db;
  await new PaperRepository(db).insertMany(
    papers.map((paper) => ({
      title: paper.title ?? '',
      abstract: paper.abstract ?? '',
      source: 'bench',
      url: `https://bench.example.org/${paper.id}`,
    })),
  );
  await new NewsRepository(db).insertMany(
    papers.map((paper) => ({
      title: paper.title ?? '',
      content: paper.abstract ?? '',
      url: `https://bench.example.org/news/${paper.id}`,
      urlNormalized: `bench.example.org/news/${paper.id}`,
      source: 'bench',
    })),
  );
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
  for (const [channel, search] of [
    ['article search', articleIds],
    ['news keyword search', newsIds],
  ] as const) {
    const recalls: { pair: (typeof pairs)[number]; recall: number }[] = [];
    for (const pair of pairs) {
      const english = await search(pair.en ?? '', TOP);
      if (english.length === 0) continue;
      const chinese = new Set(await search(pair.zh ?? '', 1000));
      recalls.push({ pair, recall: english.filter((id) => chinese.has(id)).length / english.length });
    }
    const mean = (list: { recall: number }[]) =>
      list.reduce((sum, item) => sum + item.recall, 0) / Math.max(1, list.length);
    const heldout = recalls.filter((item) => item.pair.heldout);
    const earlier = recalls.filter((item) => !item.pair.heldout);
    process.stdout.write(
      `${channel}: recall of the English top ${TOP}: all ${mean(recalls).toFixed(3)} (${recalls.length} keywords); ` +
        `held-out keywords ${mean(heldout).toFixed(3)} (${heldout.length}); keywords written with the set ${mean(earlier).toFixed(3)} (${earlier.length}) ` +
        `(target 0.9 on the held-out keywords: ${heldout.length > 0 && mean(heldout) >= 0.9 ? 'met' : 'NOT met'})\n`,
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
