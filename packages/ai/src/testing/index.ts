/** Test support: HTTP servers that speak the OpenAI protocol, and a synthetic labelled corpus. */
export * from './fake-openai-server';
export * from './openai-test-server';
export * from './synthetic-corpus';
