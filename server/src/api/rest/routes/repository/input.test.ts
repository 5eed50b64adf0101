import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../platform/errors.js';
import { accessItems, keysetLink, keysetTreePage, optionalDate, protectionInput } from './input.js';
import { parseQueryString } from '../../params.js';

const entries = ['a', 'b', 'c', 'd', 'e'].map((path) => ({ path }));

describe('keysetTreePage', () => {
  it('walks the tree by the last path seen', () => {
    expect(keysetTreePage(entries, undefined, 2)).toEqual({ items: [{ path: 'a' }, { path: 'b' }], nextToken: 'b' });
    expect(keysetTreePage(entries, 'b', 2)).toEqual({ items: [{ path: 'c' }, { path: 'd' }], nextToken: 'd' });
    expect(keysetTreePage(entries, 'd', 2)).toEqual({ items: [{ path: 'e' }], nextToken: null });
    expect(keysetTreePage(entries, 'zzz', 2)).toEqual({ items: [], nextToken: null });
  });
  it('links the next page in the format gitbeaker follows', () => {
    expect(keysetLink(new URL('http://h/api/v4/projects/1/repository/tree?pagination=keyset&per_page=2'), 2, 'dir/b c')).toBe(
      '<http://h/api/v4/projects/1/repository/tree?pagination=keyset&per_page=2&page_token=dir%2Fb+c>; rel="next"',
    );
  });
});

describe('optionalDate', () => {
  it('parses ISO 8601 and refuses nonsense', () => {
    expect(optionalDate({ since: '2024-01-02T03:04:05Z' }, 'since')?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(optionalDate({}, 'since')).toBeUndefined();
    expect(() => optionalDate({ since: 'yesterday-ish' }, 'since')).toThrow(ValidationError);
  });
});

describe('protectionInput', () => {
  it('reads gitbeaker query strings (index syntax) and coerces numbers and booleans', () => {
    const params = parseQueryString('name=main&push_access_level=30&allowed_to_merge[0][user_id]=5&allowed_to_push[0][id]=3&allowed_to_push[0][_destroy]=true&allow_force_push=true');
    expect(protectionInput(params)).toMatchObject({
      push_access_level: 30,
      allowed_to_merge: [{ user_id: 5 }],
      allowed_to_push: [{ id: 3, _destroy: true }],
      allow_force_push: true,
    });
  });
  it('refuses items that are not objects', () => {
    expect(() => accessItems({ allowed_to_push: 'x' }, 'allowed_to_push')).toThrow(ValidationError);
    expect(() => accessItems({ allowed_to_push: [{ user_id: 'abc' }] }, 'allowed_to_push')).toThrow(ValidationError);
  });
});
