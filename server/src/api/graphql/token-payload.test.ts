import { describe, expect, it } from 'vitest';
import { payloadToken } from './index.js';

describe('payloadToken (graphql-ws connection_init)', () => {
  it.each([
    [{ authorization: 'Bearer glpat-abc' }, 'glpat-abc'],
    [{ Authorization: 'bearer  glpat-abc ' }, 'glpat-abc'],
    [{ 'PRIVATE-TOKEN': 'glpat-abc' }, 'glpat-abc'],
    [{ token: 'glpat-abc' }, 'glpat-abc'],
    [{ headers: { authorization: 'Bearer glpat-abc' } }, 'glpat-abc'],
    [{ authorization: 'Basic abc' }, undefined],
    [{ authorization: 'Bearer ' }, undefined],
    [{ 'private-token': 42 }, undefined],
    [{}, undefined],
    [null, undefined],
    ['glpat-abc', undefined],
  ])('%j → %s', (payload, expected) => {
    expect(payloadToken(payload)).toBe(expected);
  });
});
