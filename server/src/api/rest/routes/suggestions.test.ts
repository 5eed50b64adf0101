import { describe, expect, it } from 'vitest';
import { parseIds } from './suggestions.js';

describe('parseIds (Grape Array[Integer] with CommaSeparatedToIntegerArray)', () => {
  it('reads a JSON array, repeated ids[] values and a comma-separated string', () => {
    expect(parseIds({ ids: [1, 2] })).toEqual([1, 2]);
    expect(parseIds({ ids: ['3', '4'] })).toEqual([3, 4]);
    expect(parseIds({ ids: '5,6' })).toEqual([5, 6]);
    expect(parseIds({ ids: 7 })).toEqual([7]);
  });

  it("answers GitLab's 400s for a missing or unreadable list", () => {
    expect(() => parseIds({})).toThrow('400 (Bad request) "ids" not given');
    expect(() => parseIds({ ids: 'a,1' })).toThrow('400 (Bad request) "ids" is invalid');
    expect(() => parseIds({ ids: [1.5] })).toThrow('"ids" is invalid');
  });
});
