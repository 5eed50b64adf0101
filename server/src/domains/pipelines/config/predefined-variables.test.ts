import { describe, expect, it } from 'vitest';

import { predefinedVariables, refSlug } from './predefined-variables.js';

const project = { id: 7, name: 'App', path: 'app', fullPath: 'acme/app', namespacePath: 'acme', defaultBranch: 'main', visibility: 'private' };

describe('predefined CI_* variables', () => {
  it('sets CI_COMMIT_BRANCH for a branch and CI_COMMIT_TAG for a tag, never both', () => {
    const branch = predefinedVariables({ serverUrl: 'https://t.example', project, source: 'push', ref: 'main', tag: false, sha: 'a'.repeat(40) });
    expect(branch).toMatchObject({ CI_COMMIT_BRANCH: 'main', CI_PIPELINE_SOURCE: 'push', CI_PROJECT_PATH: 'acme/app', CI_COMMIT_SHORT_SHA: 'aaaaaaaa' });
    expect(branch.CI_COMMIT_TAG).toBeUndefined();
    const tag = predefinedVariables({ serverUrl: 'https://t.example', project, source: 'push', ref: 'v1.0', tag: true, sha: 'a'.repeat(40) });
    expect(tag).toMatchObject({ CI_COMMIT_TAG: 'v1.0' });
    expect(tag.CI_COMMIT_BRANCH).toBeUndefined();
  });

  it.each([
    ['feature/Add-Login', 'feature-add-login'],
    ['-x-', 'x'],
    ['a'.repeat(70), 'a'.repeat(63)],
  ])('slugs %s as %s', (ref, slug) => {
    expect(refSlug(ref)).toBe(slug);
  });
});
