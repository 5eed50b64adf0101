import { describe, expect, it } from 'vitest';
import type { Actor } from '../../auth/actor.js';
import { CACHED_READ_MAX_AGE_MS } from '../../platform/db/cached-read.js';
import { createResponseCache, isQueryOnly } from './response-cache.js';

const root = { user: { id: 1 }, via: 'token', scopes: ['api'] } as unknown as Actor;
const answer = '{"data":{"project":{"id":"1"}}}';

function setup() {
  let generation = 0;
  let clock = 0;
  const cache = createResponseCache({ generation: () => generation, now: () => clock });
  return { cache, write: () => (generation += 1), advance: (ms: number) => (clock += ms) };
}

describe('isQueryOnly', () => {
  it.each([
    ['query widget($iid: String!) { project(fullPath: "a") { id } }', true],
    ['{ currentUser { id } }', true],
    ['query { project(fullPath: "mutation") { id } } # subscription in a comment', true],
    ['mutation { mergeRequestAccept(input: {}) { errors } }', false],
    ['subscription { mergeRequestMergeStatusUpdated(issuableId: "x") { id } }', false],
    ['query a { x } mutation b { y }', false],
  ])('%s → %s', (document, expected) => {
    expect(isQueryOnly(document)).toBe(expected);
  });
});

describe('createResponseCache', () => {
  it('keys by caller, scopes, operation, variables and query; refuses mutations and missing queries', () => {
    const { cache } = setup();
    const body = { query: '{ a }', variables: { iid: '1' } };
    const key = cache.keyOf(root, body);
    expect(key).not.toBeNull();
    expect(cache.keyOf({ ...root, scopes: ['read_api'] } as Actor, body)).not.toBe(key);
    expect(cache.keyOf({ ...root, user: { id: 2 } } as unknown as Actor, body)).not.toBe(key);
    expect(cache.keyOf({ ...root, via: 'session', scopes: null } as Actor, body)).not.toBe(key);
    expect(cache.keyOf(root, { ...body, variables: { iid: '2' } })).not.toBe(key);
    expect(cache.keyOf(root, { ...body, operationName: 'b' })).not.toBe(key);
    expect(cache.keyOf(root, { query: 'mutation { a }' })).toBeNull();
    expect(cache.keyOf(root, {})).toBeNull();
    expect(cache.keyOf(root, { query: `{ a ${' '.repeat(20_000)} }` })).toBeNull();
  });

  it('answers from the cache until the generation moves', () => {
    const t = setup();
    t.cache.store('k', t.cache.generation(), answer);
    expect(t.cache.get('k')?.toString()).toBe(answer);
    t.write();
    expect(t.cache.get('k')).toBeUndefined();
  });

  it('does not keep an answer computed while the generation moved, nor one with errors', () => {
    const t = setup();
    const before = t.cache.generation();
    t.write();
    t.cache.store('k', before, answer);
    expect(t.cache.get('k')).toBeUndefined();
    t.cache.store('e', t.cache.generation(), '{"data":{"project":null},"errors":[{"message":"x"}]}');
    expect(t.cache.get('e')).toBeUndefined();
  });

  it('asks again once an answer is older than the age limit', () => {
    const t = setup();
    t.cache.store('k', t.cache.generation(), answer);
    t.advance(CACHED_READ_MAX_AGE_MS);
    expect(t.cache.get('k')).toBeUndefined();
  });
});
