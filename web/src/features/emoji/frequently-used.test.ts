import { describe, expect, it } from 'vitest';
import { addFrequentlyUsed, MAX_FREQUENTLY_USED, parseFrequentlyUsed } from './frequently-used';

const known = (name: string) => name !== 'gone';

describe('frequently used emoji (at most 9)', () => {
  it('puts the latest pick first without repeating it', () => {
    expect(addFrequentlyUsed(['tada', 'eyes', 'rocket'], 'rocket')).toEqual(['rocket', 'tada', 'eyes']);
    expect(addFrequentlyUsed([], 'tada')).toEqual(['tada']);
  });

  it('keeps at most 9, dropping the oldest', () => {
    const nine = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    expect(addFrequentlyUsed(nine, 'new')).toEqual(['new', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(addFrequentlyUsed(nine, 'new')).toHaveLength(MAX_FREQUENTLY_USED);
  });

  it('reads the stored list leniently: blanks, repeats, unknown names and extra entries go', () => {
    expect(parseFrequentlyUsed(null, known)).toEqual([]);
    expect(parseFrequentlyUsed('tada,,gone,tada,eyes', known)).toEqual(['tada', 'eyes']);
    expect(parseFrequentlyUsed('1,2,3,4,5,6,7,8,9,10,11', known)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
  });
});
