/**
 * Test support: HTTP servers that speak the OpenAI protocol, a synthetic labelled corpus, the STEM case
 * of the research-field rule (field-rule-corpus.ts), and the
 * ranking-quality measures of the labelled dev set (quality-benchmark.ts).
 */
export * from '../quality-benchmark';
export * from './fake-openai-server';
export * from './field-rule-corpus';
export * from './openai-test-server';
export * from './synthetic-corpus';
