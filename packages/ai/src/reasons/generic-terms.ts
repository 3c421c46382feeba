import { contentWords } from '../builtin/text-features';

/**
 * Words every abstract uses about itself ("novel", "performance", "demonstrate", "state-of-the-art"),
 * and parts of links. Common in every field, so idf alone does not keep them out of a short reason,
 * yet two texts sharing them share nothing telling. A term made only of these is never named; a
 * phrase with one telling word is ("large language model", "public key").
 * Stemmed like termCounts (contentWords), so plural and hyphenated forms match.
 */
const GENERIC_ENGLISH = contentWords(`
  ability able accurate achieve achieved achieving additional additionally advanced advantage aim allow allowing
  analysis apply applied application assess available average baseline benefit best better called capability
  capture case challenge challenging common compared comprehensive condition consider context corresponding
  critical crucial current data dataset demonstrate demonstrated demonstrating design designed despite develop
  developed development different directly diverse due effect effective effectively effectiveness efficiency
  efficient efficiently employ enable enabling enhance enhanced enhancing ensure ensuring especially essential
  establish evaluate evaluated evaluating evaluation example existing experiment experimental explore extensive
  face fail feature field finally find finding first framework fully function furthermore future gap general
  given group high higher highlight highly identify identifying impact importance important improve improved
  improvement improving include including increase information input insight integrate integrating introduce
  introduced investigate issue key known lack large largescale lead leading level leverage leveraging limitation
  limited literature main major making mechanism minimal model moreover multiple need novel number obtain
  observed offer open optimal outperform outperforming output overall particular particularly pattern perform
  performance point pose potential practical practice previous prior problem process promising property provide
  providing quality range realworld recent recently reduce reducing remain require requiring research resulting
  respectively reveal role scenario second setting show showing significant significantly similar simple single
  size solution source specific specifically standard stateoftheart step still strategy strong struggle
  substantial success suggest superior support system task technique term thereby three tool total traditional
  true two type typically understanding unique validate various way
  code comparable complex define empirical entire following hand increasingly relevant theoretical
  markedly considerably greatly largely reduced increased decreased lower lowered remains remained
  preserved central question questions evidence directions
  http https www com org github html io
`);

/** Chinese words of the same kind, matched whole ('研究' is dropped, '研究方向' is not a term anyway). */
const GENERIC_CHINESE =
  `研究 方法 提出 本文 基于 结果 我们 实验 进行 通过 以及 一种 问题 分析 应用 具有 可以 表明 显著 提高
  性能 有效 能够 相关 领域 技术 系统 数据 模型 方面 其中 主要 重要 不同 这些 一个 利用 发现 使用 目前 近年 影响`.split(
    /\s+/,
  );

const GENERIC = new Set([...GENERIC_ENGLISH, ...GENERIC_CHINESE]);

/** Whether a term (its stems, or Chinese characters) says nothing about the topic. */
export function isGenericTerm(stems: string[] | undefined, characters: string): boolean {
  return stems ? stems.every((stem) => GENERIC.has(stem)) : GENERIC.has(characters);
}
