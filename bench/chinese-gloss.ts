/**
 * `pnpm bench:gloss`: cost of offline Chinese -> English glossing. Prints the cold load (jieba's
 * dictionary and CC-CEDICT, paid once per process), the time per homepage-sized text once warm, and the
 * time per search keyword, and the heap and resident memory the loaded dictionaries hold. Run it in a fresh process: the cold figure is
 * only cold the first time.
 */
// Imported from the ai package, where its dependencies resolve (the repository root has none).
import { draftEnglishDirection, englishSearchPhrases, glossChinese } from '../packages/ai/src/offline/chinese-gloss';

const TEXT = `张伟，计算机科学与技术学院教授，博士生导师。主要研究方向为图神经网络、药物发现与分子性质预测，
也关注大语言模型与知识图谱的结合。课题组欢迎对深度学习、机器学习感兴趣的同学报考。
王静课题组研究肠道干细胞在组织再生中的调控机制，以及炎症性肠病的发病机理；利用类器官和单细胞测序研究上皮修复。
陈晓主要从事钙钛矿太阳能电池与光电器件研究，聚焦钙钛矿薄膜的缺陷钝化与器件稳定性。`;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const before = process.memoryUsage();
let start = performance.now();
// 太阳能 is not in our curated table, so this also loads CC-CEDICT.
glossChinese('图神经网络与太阳能');
const cold = performance.now() - start;
const RUNS = 200;
start = performance.now();
for (let i = 0; i < RUNS; i += 1) draftEnglishDirection(TEXT);
const perText = (performance.now() - start) / RUNS;
// Search keywords (article and news search gloss each Chinese keyword once per request).
const QUERIES = [
  '图神经网络',
  '肠道菌群代谢',
  '量子纠错',
  '钙钛矿太阳能电池',
  '明清社会经济史',
  '新冠疫苗',
  '深度学习方法',
];
start = performance.now();
for (let i = 0; i < RUNS; i += 1) for (const query of QUERIES) englishSearchPhrases(query);
const perQuery = (performance.now() - start) / (RUNS * QUERIES.length);
globalThis.gc?.();
const after = process.memoryUsage();
process.stdout.write(
  [
    `cold load (jieba + CC-CEDICT + first gloss): ${cold.toFixed(0)} ms`,
    `per text (${TEXT.length} characters, draftEnglishDirection, mean of ${RUNS}): ${perText.toFixed(2)} ms`,
    `per search keyword (englishSearchPhrases, mean of ${RUNS * QUERIES.length}): ${(perQuery * 1000).toFixed(0)} µs`,
    `heap after load: ${mb(after.heapUsed)} (+${mb(after.heapUsed - before.heapUsed)}), rss: ${mb(after.rss)} (+${mb(after.rss - before.rss)})`,
    `draft: ${draftEnglishDirection(TEXT)?.summary}`,
    '',
  ].join('\n'),
);
