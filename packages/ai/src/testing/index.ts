/**
 * Test support: HTTP servers that speak the OpenAI protocol, a synthetic labelled corpus, the STEM case
 * of the research-field rule (field-rule-corpus.ts), and the
 * ranking-quality measures of the labelled dev set (labelled-set.ts) and the simulated readers of `pnpm bench:quality` (simulated-readers.ts).
 */

export * from './fake-openai-server';
export * from './field-rule-corpus';
export * from './labelled-set';
export * from './openai-test-server';
export * from './synthetic-corpus';
