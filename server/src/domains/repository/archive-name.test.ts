import { describe, expect, it } from 'vitest';
import { archiveName } from './archive-name.js';

describe('archiveName', () => {
  const sha = 'c'.repeat(40);
  it.each([
    ['app', 'main', undefined, `app-main-${sha}`],
    ['app', 'feature/login', undefined, `app-feature-login-${sha}`],
    ['app', 'main', 'docs/api', `app-main-${sha}-docs-api`],
    ['app', 'a"b;c', undefined, `app-a_b_c-${sha}`],
  ])('%s at %s, path %s', (project, ref, path, expected) => {
    expect(archiveName(project, ref, sha, path)).toBe(expected);
  });
});
