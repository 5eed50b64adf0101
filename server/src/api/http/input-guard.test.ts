import { describe, expect, it } from 'vitest';
import { graphqlTextProblem, pathParamsProblem, valuesProblem } from './input-guard.js';

const body = (problem: { body: unknown; status: number } | null) => (problem ? [problem.status, problem.body] : null);

describe('pathParamsProblem', () => {
  it.each([
    [{ id: '12' }, null],
    [{ id: 'group%2Fproject' }, null],
    [{ id: '9007199254740991' }, null],
    [{ id: '99999999999999999999999999' }, [404, '404 Not Found']],
    [{ id: '1', merge_request_iid: '99999999999999999999' }, [404, '404 Not Found']],
    [{ note_id: '18446744073709551616' }, [404, '404 Not Found']],
    [{ branch: '99999999999999999999999999' }, null],
    [{ id: 'a\u0000b' }, [400, '400 (Bad request) "id" is invalid']],
    [{ '*': 'docs/a\u0000b' }, [400, '400 (Bad request) "path" is invalid']],
  ] as const)('%j', (params, expected) => {
    expect(body(pathParamsProblem(params))).toEqual(expected);
  });

  it('leaves the ids of a route with a declared input to its schema, and still refuses NUL there', () => {
    expect(pathParamsProblem({ id: '99999999999999999999999999' }, { ids: false })).toBeNull();
    expect(body(pathParamsProblem({ id: 'a\u0000b' }, { ids: false }))).toEqual([400, '400 (Bad request) "id" is invalid']);
  });
});

describe('valuesProblem', () => {
  it.each([
    [{ search: 'ab', page: 2, nested: { list: ['x', 1.5] } }, null],
    [{ search: 'a\u0000b' }, [400, '400 (Bad request) "search" is invalid']],
    [{ position: { base_sha: 'a\u0000' } }, [400, '400 (Bad request) "position" is invalid']],
    [{ labels: ['ok', 'n\u0000'] }, [400, '400 (Bad request) "labels" is invalid']],
    [{ 'ke\u0000y': 'v' }, [400, '400 (Bad request) "key" is invalid']],
    [{ user_id: 1e20 }, [400, '400 (Bad request) "user_id" is invalid']],
    [{ user_id: 9007199254740992 }, [400, '400 (Bad request) "user_id" is invalid']],
    [Buffer.from('a\u0000b'), null],
  ] as const)('%j', (values, expected) => {
    expect(body(valuesProblem(values))).toEqual(expected);
  });
});

describe('graphqlTextProblem', () => {
  it.each([
    [{ query: '{ project(fullPath: "a/b") { id } }' }, null],
    [{ query: '{ project(fullPath: "a\\u0000b") { id } }' }, [400, '400 (Bad request) "query" is invalid']],
    [{ query: '{ project(fullPath: "a\\u{0}b") { id } }' }, [400, '400 (Bad request) "query" is invalid']],
    [{ query: 'query($p: ID!) { project(fullPath: $p) { id } }', variables: '{"p":"a\\u0000b"}' }, [400, '400 (Bad request) "variables" is invalid']],
  ] as const)('%j', (values, expected) => {
    expect(body(graphqlTextProblem(values))).toEqual(expected);
  });
});
