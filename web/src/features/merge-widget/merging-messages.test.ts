import { describe, expect, it } from 'vitest';
import { MERGING_PHRASES, nextPhraseIndex } from './merging-messages';
import { splitMessage } from './rich-text';

describe('the merging panel phrases', () => {
  it('are nine, each a bold "Merging!" and a phrase', () => {
    expect(MERGING_PHRASES).toHaveLength(9);
    for (const phrase of MERGING_PHRASES) expect(splitMessage(phrase)[0]).toEqual({ kind: 'wrap', name: 'bold', text: 'Merging!' });
    expect(new Set(MERGING_PHRASES).size).toBe(9);
  });

  it('rotate through all nine and wrap around', () => {
    const seen = new Set<number>();
    let index = 0;
    for (let step = 0; step < 9; step++) {
      seen.add(index);
      index = nextPhraseIndex(index);
    }
    expect(seen.size).toBe(9);
    expect(index).toBe(0);
  });
});
