import { describe, expect, it } from 'vitest';
import { pairRows } from './side-by-side';

const row = (type: string, text: string) => ({ type, text });

describe('pairRows', () => {
  it('sets deletions against the additions that follow them', () => {
    const c = row('context', 'c');
    const d1 = row('delete', 'd1');
    const d2 = row('delete', 'd2');
    const a1 = row('add', 'a1');
    expect(pairRows([c, d1, d2, a1, c])).toEqual([
      { kind: 'pair', left: c, right: c },
      { kind: 'pair', left: d1, right: a1 },
      { kind: 'pair', left: d2, right: null },
      { kind: 'pair', left: c, right: c },
    ]);
  });

  it('puts lone additions on the right', () => {
    const a = row('add', 'a');
    expect(pairRows([a])).toEqual([{ kind: 'pair', left: null, right: a }]);
  });

  it('starts a new block when a deletion follows additions', () => {
    const a = row('add', 'a');
    const d = row('delete', 'd');
    expect(pairRows([a, d])).toEqual([
      { kind: 'pair', left: null, right: a },
      { kind: 'pair', left: d, right: null },
    ]);
  });

  it('lets hunk headers, notes and expanders span both sides', () => {
    const hunk = row('hunk', '@@');
    const d = row('delete', 'd');
    const note = row('note', 'No newline at end of file');
    expect(pairRows([hunk, d, note])).toEqual([
      { kind: 'full', row: hunk },
      { kind: 'pair', left: d, right: null },
      { kind: 'full', row: note },
    ]);
  });
});
