import { describe, expect, it } from 'vitest';
import { compareSortableNames, groupJobs, jobGroupName } from './ci-jobs.js';

describe('jobGroupName (GitLab group_name)', () => {
  it.each([
    ['rspec 1/3', 'rspec'],
    ['rspec 10/10', 'rspec'],
    ['rspec 1:3', 'rspec'],
    ['rspec 1 3', 'rspec'],
    ['rspec 1\\3', 'rspec'],
    ['rspec:1/3', 'rspec'],
    ['test: [ruby, 3]', 'test'],
    ['test: [ruby, 3] 1/2', 'test'],
    ['test [a] [b] [c]', 'test'],
    ['deploy: [eu, prod]', 'deploy'],
    ['a 1/2 3/4 5/6', 'a'],
    // at most three suffixes go: the fourth from the end stays
    ['a 1/2 3/4 5/6 7/8', 'a 1/2'],
    // the suffix must end the name and follow whitespace or a colon
    ['rspec', 'rspec'],
    ['build1/3', 'build1/3'],
    ['rspec 1/3 unit', 'rspec 1/3 unit'],
    ['test[ruby]', 'test[ruby]'],
    ['node 18', 'node 18'],
    ['  spaced 1/2  ', 'spaced'],
    // the greedy `[.*]` reaches the last bracket
    ['test [a] foo [b]', 'test'],
    ['', ''],
  ])('%j → %j', (name, group) => {
    expect(jobGroupName(name)).toBe(group);
  });
});

describe('compareSortableNames (GitLab sortable_name)', () => {
  it.each([
    ['rspec 2/10', 'rspec 10/10', -1],
    ['rspec 10/10', 'rspec 2/10', 1],
    ['build', 'build', 0],
    ['a', 'a 1', -1],
    ['test', 'build', 1],
    ['job1', 'job01', 0],
  ])('%j vs %j', (a, b, sign) => {
    expect(Math.sign(compareSortableNames(a, b))).toBe(sign);
  });
});

describe('groupJobs', () => {
  it('groups parallel and matrix jobs in sortable-name order', () => {
    const names = ['rspec 10/10', 'lint', 'rspec 2/10', 'test: [ruby, 3]', 'rspec 1/10', 'test: [go, 1]', 'docs'];
    const groups = groupJobs(names.map((name) => ({ name })));
    expect(groups.map((group) => [group.name, group.jobs.map((job) => job.name)])).toEqual([
      ['docs', ['docs']],
      ['lint', ['lint']],
      ['rspec', ['rspec 1/10', 'rspec 2/10', 'rspec 10/10']],
      ['test', ['test: [go, 1]', 'test: [ruby, 3]']],
    ]);
  });

  it('answers no group for no jobs', () => {
    expect(groupJobs([])).toEqual([]);
  });
});
