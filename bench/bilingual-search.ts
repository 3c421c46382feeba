/**
 * `pnpm bench:bilingual` (second part): does a Chinese search keyword find what its English finds? For
 * each search pair of bench/bilingual-set/*.jsonl (a Chinese keyword and the English papers write), the
 * set's English papers are searched on a real database (PostgreSQL with TEST_DATABASE_URL, else
 * in-memory PGlite) through the product's article search and news keyword search, once with the
 * English keyword and once with the Chinese one (glossed by the one glossary, englishSearchPhrases);
 * recall = the share of the English query's top 20 the Chinese query also finds. Target >= 0.9.
 */
import fs from 'node:fs';
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

interface SetLine {
  kind: 'paper' | 'profile' | 'search';
  id: string;
  field: string;
  title?: string;
  abstract?: string;
  zh?: string;
  en?: string;
}

const TOP = 20;
const setDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, 'bilingual-set'));
const lines: SetLine[] = fs
  .readdirSync(setDir)
  .filter((file) => file.endsWith('.jsonl'))
  .sort()
  .flatMap((file) =>
    fs
      .readFileSync(path.join(setDir, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as SetLine),
  );
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
    let recallSum = 0;
    let measured = 0;
    const misses: string[] = [];
    for (const pair of pairs) {
      const english = await search(pair.en ?? '', TOP);
      if (english.length === 0) continue;
      const chinese = new Set(await search(pair.zh ?? '', 1000));
      const recall = english.filter((id) => chinese.has(id)).length / english.length;
      recallSum += recall;
      measured += 1;
      if (recall < 1)
        misses.push(
          `${pair.zh} (${pair.en}): ${recall.toFixed(2)} -> ${JSON.stringify(englishSearchPhrases(pair.zh ?? ''))}`,
        );
    }
    const mean = recallSum / Math.max(1, measured);
    process.stdout.write(
      `${channel}: recall of the English top ${TOP} ${mean.toFixed(3)} over ${measured} keywords (target 0.9: ${mean >= 0.9 ? 'met' : 'NOT met'})\n`,
    );
    for (const miss of misses) process.stdout.write(`  ${miss}\n`);
  }
} finally {
  await database.close();
}
