import { describe, expect, it } from 'vitest';
import { API_PATHS, apiPath } from '../src/api/paths';

describe('apiPath', () => {
  it('fills a parameter and keeps the trailing slash', () => {
    expect(apiPath(API_PATHS.articleRead, { id: '42' })).toBe('/articles/42/read/');
    expect(apiPath(API_PATHS.taskStatus, { id: 7 })).toBe('/api/auth/tasks/7/status/');
    expect(apiPath(API_PATHS.session, { id: 'abc' })).toBe('/api/auth/sessions/abc/');
  });

  it('encodes each value as one path segment', () => {
    expect(apiPath(API_PATHS.removeKeyword, { id: 'a/b c?d#e%' })).toBe('/user-keywords/a%2Fb%20c%3Fd%23e%25/remove/');
    expect(apiPath(API_PATHS.newsDismiss, { id: '../x' })).toBe('/api/news/..%2Fx/not-interested/');
  });
});

describe('API_PATHS', () => {
  it('writes every path from the root, each once', () => {
    const paths = Object.values(API_PATHS);
    expect(paths.filter((path) => !path.startsWith('/'))).toEqual([]);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
