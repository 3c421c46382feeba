/**
 * Test support: HTTP servers that speak the OpenAI protocol, a synthetic labelled corpus, and the
 * ranking-quality measures of the labelled dev set (quality-benchmark.ts).
 */
export * from '../quality-benchmark';
export * from './fake-openai-server';
export * from './openai-test-server';
export * from './synthetic-corpus';
