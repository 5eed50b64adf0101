import { describe, expect, it } from 'vitest';
import { splitMessage } from './rich-text';

describe('splitMessage', () => {
  it('leaves a slot where each placeholder without a value was', () => {
    expect(splitMessage('%{link} the target branch')).toEqual([
      { kind: 'slot', name: 'link' },
      { kind: 'text', text: ' the target branch' },
    ]);
  });

  it('interpolates the values it is given through t()', () => {
    expect(splitMessage('%{commitCount} will be added to %{targetBranch}.', { commitCount: '2 commits' })).toEqual([
      { kind: 'text', text: '2 commits will be added to ' },
      { kind: 'slot', name: 'targetBranch' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('wraps the text between a Start and End pair', () => {
    expect(splitMessage('%{boldStart}Merging!%{boldEnd} Drum roll, please…')).toEqual([
      { kind: 'wrap', name: 'bold', text: 'Merging!' },
      { kind: 'text', text: ' Drum roll, please…' },
    ]);
  });
});
