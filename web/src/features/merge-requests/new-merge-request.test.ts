import { describe, expect, it } from 'vitest';
import type { CommitSummary } from '../../lib/gitlab-types';
import { defaultTitleAndDescription, humanizeBranch, initialFormValues } from './new-merge-request';

const commit = (title: string, message = title) => ({ title, message }) as CommitSummary;

describe('defaultTitleAndDescription', () => {
  it('takes title and body of a single commit', () => {
    expect(defaultTitleAndDescription('x', [commit('Fix login', 'Fix login\n\nThe form lost focus.\n')])).toEqual({ title: 'Fix login', description: 'The form lost focus.' });
  });

  it('names several commits after the branch', () => {
    expect(defaultTitleAndDescription('feature/add-login_page', [commit('a'), commit('b')])).toEqual({ title: 'Feature/add login page', description: '' });
    expect(humanizeBranch('fix--it')).toBe('Fix it');
  });
});

describe('initialFormValues', () => {
  it('follows the target project’s settings', () => {
    expect(initialFormValues({ remove_source_branch_after_merge: false, squash_option: 'default_on' }, 'main')).toMatchObject({ targetBranch: 'main', removeSourceBranch: false, squash: true });
    expect(initialFormValues({}, 'dev')).toMatchObject({ removeSourceBranch: true, squash: false, allowCollaboration: true });
  });
});
