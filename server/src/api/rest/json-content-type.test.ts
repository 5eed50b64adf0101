import { describe, expect, it } from 'vitest';
import { gitlabJsonContentType } from './json-content-type.js';

describe('gitlabJsonContentType', () => {
  it.each([
    ['/api/v4/projects', 'application/json; charset=utf-8', 'application/json'],
    ['/api/v4/projects?page=2', 'application/json;charset=UTF-8', 'application/json'],
    ['/api/v4', 'application/json; charset=utf-8', 'application/json'],
    ['/api/v4/no/such/route', 'application/json; charset=utf-8', 'application/json'],
    // already exact, or not JSON: left alone
    ['/api/v4/projects', 'application/json', undefined],
    ['/api/v4/projects/1/repository/files/a/raw', 'text/plain; charset=utf-8', undefined],
    ['/api/v4/projects/1/merge_requests/1/raw_diffs', 'text/plain; charset=utf-8', undefined],
    ['/api/v4/projects', undefined, undefined],
    // GitLab's Rails controllers (GraphQL, the web app's calls) send the charset
    ['/api/graphql', 'application/json; charset=utf-8', undefined],
    ['/api/v4x', 'application/json; charset=utf-8', undefined],
    ['/-/session', 'application/json; charset=utf-8', undefined],
  ])('%s with %s → %s', (url, type, expected) => {
    expect(gitlabJsonContentType(url, type)).toBe(expected);
  });
});
