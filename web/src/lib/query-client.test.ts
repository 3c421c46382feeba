import { describe, expect, it } from 'vitest';
import { ApiError, createHttpError } from './api-client';
import { MAX_QUERY_RETRIES, shouldRetryQuery } from './query-client';

const transport = (code: 'NETWORK_ERROR' | 'TIMEOUT' | 'ABORTED') =>
  new ApiError({ status: null, code, message: code });

describe('shouldRetryQuery', () => {
  it('never retries a 4xx answer', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429]) {
      expect(shouldRetryQuery(0, createHttpError(status, null))).toBe(false);
    }
  });

  it('retries 5xx, network failures and time-outs up to the limit', () => {
    for (const error of [
      createHttpError(500, null),
      createHttpError(503, null),
      transport('NETWORK_ERROR'),
      transport('TIMEOUT'),
    ]) {
      expect(shouldRetryQuery(0, error)).toBe(true);
      expect(shouldRetryQuery(MAX_QUERY_RETRIES - 1, error)).toBe(true);
      expect(shouldRetryQuery(MAX_QUERY_RETRIES, error)).toBe(false);
    }
  });

  it('does not retry an aborted request or a non-API error (a bug in our own code)', () => {
    expect(shouldRetryQuery(0, transport('ABORTED'))).toBe(false);
    expect(shouldRetryQuery(0, new TypeError('x is undefined'))).toBe(false);
  });
});
