/**
 * What text a stored vector is made from. Every producer (ingestion, re-embedding, the profile) must
 * use these so that a paper embedded at ingestion and the same paper re-embedded later get the same
 * vector.
 */

/**
 * Longest text embedded, in characters: far above a paper abstract, and within the input limits of
 * remote embedding models (about 8k tokens). Longer texts are cut at a word boundary.
 */
export const MAX_EMBEDDING_TEXT_CHARS = 8_000;

/** The text cut to MAX_EMBEDDING_TEXT_CHARS (every text sent to an embedding provider goes through it). */
export function capEmbeddingText(text: string): string {
  if (text.length <= MAX_EMBEDDING_TEXT_CHARS) return text;
  const cut = text.slice(0, MAX_EMBEDDING_TEXT_CHARS);
  const space = cut.lastIndexOf(' ');
  return space > MAX_EMBEDDING_TEXT_CHARS * 0.8 ? cut.slice(0, space) : cut;
}

/** A paper: title and abstract. A news item: title and content. */
export function documentEmbeddingText(title: string, body: string): string {
  const head = title.trim();
  const rest = body.trim();
  if (!rest) return capEmbeddingText(head);
  return capEmbeddingText(head ? `${head}. ${rest}` : rest);
}

/** A user's research profile is embedded from the English research summary alone. */
export function profileEmbeddingText(researchSummaryEn: string): string {
  return capEmbeddingText(researchSummaryEn.trim());
}

/** Unit length. A zero vector (a text with no known term) becomes a fixed pseudo-random direction of the text. */
export function normalizeVector(vector: ArrayLike<number>, text = ''): number[] {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += (vector[i] as number) ** 2;
  norm = Math.sqrt(norm);
  if (norm > 0 && Number.isFinite(norm)) return Array.from(vector, (value) => value / norm);
  // pgvector's cosine distance of a zero vector is NaN; a text-seeded direction is instead nearly
  // orthogonal to everything, which is what "shares nothing with the corpus" should mean.
  let seed = 2166136261;
  for (let i = 0; i < text.length; i++) seed = Math.imul(seed ^ text.charCodeAt(i), 16777619);
  const out = Array.from({ length: vector.length }, () => {
    seed = Math.imul(seed ^ (seed >>> 15), 2246822507) ^ Math.imul(seed ^ (seed >>> 13), 3266489909);
    return ((seed >>> 0) / 4294967296) * 2 - 1;
  });
  const outNorm = Math.sqrt(out.reduce((sum, value) => sum + value * value, 0)) || 1;
  return out.map((value) => value / outNorm);
}

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/g;
const LATIN_LETTER = /[A-Za-z]/g;

/**
 * A text is Chinese when Chinese characters make at least a fifth of its letters (Han characters plus
 * Latin letters). A Latin word is several letters but one Han character is about a word, so a Chinese
 * abstract full of English terms (大语言模型 (LLM) 的 Reservoir Computing ...) still counts, and an
 * English abstract naming a Chinese author or place does not.
 */
const CHINESE_SHARE = 0.2;

export function isChineseText(text: string): boolean {
  const han = text.match(HAN)?.length ?? 0;
  if (han < 2) return false;
  const latin = text.match(LATIN_LETTER)?.length ?? 0;
  return han / (han + latin) >= CHINESE_SHARE;
}
