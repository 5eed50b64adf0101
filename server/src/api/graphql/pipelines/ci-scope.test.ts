import { describe, expect, it } from 'vitest';
import { jobGroupName } from './ci-scope.js';

describe('jobGroupName (GitLab’s Ci::Group names)', () => {
  it.each([
    ['rspec 1/3', 'rspec'],
    ['rspec 2:3', 'rspec'],
    ['rspec: [ruby, 3.2]', 'rspec'],
    ['build', 'build'],
    ['test 1', 'test 1'],
    ['deploy 10/12', 'deploy'],
  ])('%s → %s', (name, group) => expect(jobGroupName(name)).toBe(group));
});
