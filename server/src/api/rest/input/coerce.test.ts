import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../../platform/errors.js';
import { coerceInput, mergeInput, ParamsError } from './coerce.js';
import { Any, BlankableStr, Bool, DateTime, Enum, Hash, Id, Input, Int, List, NamespacedRef, Nullable, Obj, Optional, PathId, Str, Text } from './types.js';

const problemOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ParamsError) return error.message;
    throw error;
  }
  return null;
};

describe('coerceInput: Grape’s coercions', () => {
  const schema = Input({
    n: Optional(Int()),
    b: Optional(Bool()),
    s: Optional(Str()),
    t: Optional(Text()),
    e: Optional(Enum(['asc', 'desc'] as const)),
    d: Optional(DateTime()),
    ids: Optional(List(Id())),
    names: Optional(List(Str(), { comma: false })),
    h: Optional(Hash(Str())),
    o: Optional(Obj({ x: Optional(Int()) })),
    nul: Optional(Nullable(Str())),
    any: Optional(Any()),
  });
  const read = (raw: Record<string, unknown>) => coerceInput<Record<string, unknown>>(schema, raw);

  it.each([
    [{ n: '42' }, { n: 42 }],
    [{ n: ' -7 ' }, { n: -7 }],
    [{ n: 42 }, { n: 42 }],
    [{ n: '' }, {}],
    [{ b: 'true' }, { b: true }],
    [{ b: 'YES' }, { b: true }],
    [{ b: '1' }, { b: true }],
    [{ b: 1 }, { b: true }],
    [{ b: 't' }, { b: true }],
    [{ b: 'no' }, { b: false }],
    [{ b: 'on' }, { b: true }],
    [{ b: 'OFF' }, { b: false }],
    [{ b: 'y' }, { b: true }],
    [{ b: 'n' }, { b: false }],
    [{ b: '0' }, { b: false }],
    [{ b: '' }, { b: false }],
    [{ b: null }, { b: false }],
    [{ s: 5 }, { s: '5' }],
    [{ s: '' }, { s: '' }],
    [{ t: '' }, {}],
    [{ s: null }, {}],
    [{ e: 'asc' }, { e: 'asc' }],
    [{ e: '' }, {}],
    [{ d: '2024-01-02T03:04:05Z' }, { d: new Date('2024-01-02T03:04:05Z') }],
    [{ ids: ['1', 2] }, { ids: [1, 2] }],
    [{ ids: '1,2' }, { ids: [1, 2] }],
    [{ ids: '[1,2]' }, { ids: [1, 2] }],
    [{ ids: 3 }, { ids: [3] }],
    [{ ids: '' }, { ids: [] }],
    [{ ids: { 1: '5', 0: '4' } }, { ids: [4, 5] }],
    [{ names: 'a,b' }, { names: ['a,b'] }],
    [{ names: ['a', 'b'] }, { names: ['a', 'b'] }],
    [{ h: { k: 'v', n: 1 } }, { h: { k: 'v', n: '1' } }],
    [{ o: { x: '3', y: 'dropped' } }, { o: { x: 3 } }],
    [{ nul: null }, { nul: null }],
    [{ nul: 'x' }, { nul: 'x' }],
    [{ any: { deep: [1] } }, { any: { deep: [1] } }],
    [{ undeclared: 'x' }, {}],
  ])('%j reads as %j', (raw, expected) => {
    expect(read(raw)).toEqual(expected);
  });

  it.each([
    [{ n: '1e3' }, 'n is invalid'],
    [{ n: '0x10' }, 'n is invalid'],
    [{ n: '1.5' }, 'n is invalid'],
    [{ n: 1.5 }, 'n is invalid'],
    [{ n: 1e20 }, 'n is invalid'],
    [{ n: '99999999999999999999' }, 'n is invalid'],
    [{ n: ['1'] }, 'n is invalid'],
    [{ b: 'maybe' }, 'b is invalid'],
    [{ s: { a: 1 } }, 's is invalid'],
    [{ e: 'up' }, 'e does not have a valid value'],
    [{ d: 'yesterday-ish' }, 'd is invalid'],
    [{ ids: 'a,1' }, 'ids is invalid'],
    [{ ids: ['-1'] }, 'ids is invalid'],
    [{ o: 'x' }, 'o is invalid'],
    [{ o: { x: 'y' } }, 'o[x] is invalid'],
    [{ n: 'x', b: 'x' }, 'n is invalid, b is invalid'],
  ])('%j is refused: %s', (raw, message) => {
    expect(problemOf(() => read(raw))).toBe(message);
  });

  it('names what is missing, and what is empty, as Grape does', () => {
    const required = Input({ title: Str(), body: BlankableStr(), position: Obj({ base_sha: Str() }) });
    expect(problemOf(() => coerceInput(required, {}))).toBe('title is missing, body is missing, position is missing');
    expect(problemOf(() => coerceInput(required, { title: '', body: '', position: {} }))).toBe('title is empty, position[base_sha] is missing');
  });

  it('fills defaults', () => {
    expect(coerceInput(Input({ sort: Optional(Enum(['asc', 'desc'] as const, { default: 'desc' })) }), {})).toEqual({ sort: 'desc' });
  });

  it('answers 404 for a project named by an id past the safe integers, and reads a path as given', () => {
    const ref = Input({ id: NamespacedRef() });
    expect(coerceInput(ref, { id: 'group/project' })).toEqual({ id: 'group/project' });
    expect(coerceInput(ref, { id: '42' })).toEqual({ id: '42' });
    expect(() => coerceInput(ref, { id: '99999999999999999999' })).toThrow(new NotFoundError());
  });

  it('answers 404 for a path id that is not an id in range', () => {
    const path = Input({ id: PathId('User') });
    expect(coerceInput(path, { id: '12' })).toEqual({ id: 12 });
    for (const bad of ['99999999999999999999', 'abc', '-1', '1e3', '']) expect(() => coerceInput(path, { id: bad })).toThrow(new NotFoundError('User'));
  });
});

describe('mergeInput', () => {
  it('merges as Grape does: body over query, path over both', () => {
    expect(mergeInput({ id: '1' }, { id: 'q', a: 'q', b: 'q' }, { b: 'b', id: 'b' })).toEqual({ id: '1', a: 'q', b: 'b' });
  });

  it('ignores a body that is not a hash', () => {
    expect(mergeInput({}, { a: '1' }, Buffer.from('x'))).toEqual({ a: '1' });
    expect(mergeInput({}, { a: '1' }, [1])).toEqual({ a: '1' });
  });
});
