/**
 * `node --import tsx bench/extract-bilingual-set.ts <DayDayArXiv git dir> [out.jsonl]`: rebuilds the
 * bilingual set of `pnpm bench:bilingual` from a clone of github.com/t41372/DayDayArXiv (the set was
 * made at commit d2542291). Reads the daily files `daydayarxiv_frontend/public/data/<date>/<category>.json`
 * of HEAD (not the `_raw` ones) and writes one JSON object a line: id (arXiv id without version),
 * subject (primary category), title_en, abstract_en, title_zh, text_zh (the Chinese summary), each paper
 * once, papers without a Chinese summary or an abstract left out. The data states no licence, so the
 * output stays outside the repository: by default `<shared fixtures>/recorded/bilingual/daydayarxiv-bilingual.jsonl`.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sharedFixturesDir } from '../packages/db/src/testing/fixtures';

const [repo, outArg] = process.argv.slice(2);
if (!repo) {
  console.error('usage: node --import tsx bench/extract-bilingual-set.ts <DayDayArXiv git dir> [out.jsonl]');
  process.exit(2);
}
const out = path.resolve(outArg ?? path.join(sharedFixturesDir(), 'recorded/bilingual/daydayarxiv-bilingual.jsonl'));
const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

interface DayPaper {
  arxiv_id?: string;
  primary_category?: string;
  title?: string;
  abstract?: string;
  title_zh?: string;
  tldr_zh?: string;
}

const files = git('ls-tree', '-r', '--name-only', 'HEAD', 'daydayarxiv_frontend/public/data')
  .split('\n')
  .filter((file) => file.endsWith('.json') && !file.endsWith('_raw.json'))
  .sort();
const papers = new Map<string, object>();
files.forEach((file, index) => {
  const day = JSON.parse(git('show', `HEAD:${file}`)) as { papers?: DayPaper[] };
  for (const paper of day.papers ?? []) {
    const id = (paper.arxiv_id ?? '').replace(/v\d+$/, '');
    if (!id || !paper.tldr_zh || !paper.abstract || papers.has(id)) continue;
    papers.set(id, {
      id,
      subject: paper.primary_category,
      title_en: paper.title,
      abstract_en: paper.abstract,
      title_zh: paper.title_zh || null,
      text_zh: paper.tldr_zh,
    });
  }
  process.stderr.write(`\r${index + 1}/${files.length} files, ${papers.size} papers`);
});
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, [...papers.values()].map((paper) => JSON.stringify(paper)).join('\n') + '\n');
process.stderr.write(`\nwrote ${out}\n`);
