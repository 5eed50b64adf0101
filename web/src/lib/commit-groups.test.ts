import { describe, expect, it } from 'vitest';
import { groupCommitsByDay } from './commit-groups';

const at = (y: number, m: number, d: number, h: number) => ({ committed_date: new Date(y, m - 1, d, h).toISOString() });

describe('groupCommitsByDay', () => {
  it('groups consecutive commits by local day, keeping order', () => {
    const commits = [
      { id: 'c', ...at(2024, 3, 5, 18) },
      { id: 'b', ...at(2024, 3, 5, 9) },
      { id: 'a', ...at(2024, 3, 4, 23) },
    ];
    const groups = groupCommitsByDay(commits);
    expect(groups.map((g) => [g.day, g.label, g.commits.map((c) => c.id)])).toEqual([
      ['2024-03-05', 'Mar 5, 2024', ['c', 'b']],
      ['2024-03-04', 'Mar 4, 2024', ['a']],
    ]);
  });

  it('puts undated commits in their own group and handles empty lists', () => {
    expect(groupCommitsByDay([{ committed_date: 'bad' }])[0]?.label).toBe('Unknown date');
    expect(groupCommitsByDay([])).toEqual([]);
  });
});
