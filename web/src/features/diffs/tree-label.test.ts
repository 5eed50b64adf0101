import { describe, expect, it } from 'vitest';
import { treeRowLabel } from './tree-label';

describe('treeRowLabel', () => {
  it.each([
    ['a.txt', { added: 2, removed: 1 }, false, 'a.txt, 2 added, 1 removed'],
    ['a.txt', { added: 2, removed: 1 }, true, 'a.txt, 2 added, 1 removed, viewed'],
    ['big.bin', null, true, 'big.bin, viewed'],
    ['src', null, false, 'src'],
  ])('%s', (name, counts, viewed, label) => {
    expect(treeRowLabel(name, counts, viewed)).toBe(label);
  });
});
