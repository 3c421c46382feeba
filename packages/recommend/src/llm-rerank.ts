/** What the pipeline gives the LLM rerank (papers only): the reader and the first papers, in order. */
export interface LlmRerankInput {
  readerId: string;
  /** The research summary (English). */
  profile: string;
  /** The names of the reader's other interests. */
  interests: string[];
  items: { id: number; title: string; abstract: string }[];
}

/**
 * An optional reordering of the first recommendations by an LLM (@radar/ai LlmReranker): an order and a
 * reason in Chinese per item, never a score (an LLM's scores are not calibrated across calls). `order`
 * holds every input id once; a rejection leaves the pipeline's order (the pipeline logs it).
 */
export interface LlmRerank {
  /** How many of the first items it reorders. */
  readonly maxItems: number;
  rerank(input: LlmRerankInput): Promise<{ order: number[]; reasons: Map<number, string> }>;
}
