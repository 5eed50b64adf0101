import { describe, expect, it } from 'vitest';
import { parseProjectPage, splitAtDash } from '../lib/routes';
import { isSignedInPath, projectPageNeedsUser } from './route-access';

const pageOf = (pathname: string) => parseProjectPage(splitAtDash(pathname).rest);

describe('isSignedInPath', () => {
  it.each([
    '/',
    '/dashboard/projects',
    '/dashboard/groups',
    '/dashboard/merge_requests',
    '/projects/new',
    '/groups/new',
    '/-/user_settings/personal_access_tokens',
    '/admin/users',
    '/admin/users/new',
    '/admin/abuse_reports',
  ])('%s needs a user', (path) => expect(isSignedInPath(path)).toBe(true));

  it.each([
    '/group/project',
    '/group/project/-/blob/main/README.md',
    '/group/project/-/merge_requests/1',
    '/group/sub',
    '/groups/group/-/group_members',
    // a group or project that happens to be named like a signed-in page's first segment
    '/admin',
    '/dashboard',
    '/projects',
  ])('%s is public (the server decides what a visitor may read)', (path) => expect(isSignedInPath(path)).toBe(false));
});

describe('projectPageNeedsUser', () => {
  it.each([
    ['/g/p', false],
    ['/g/p/-/tree/main/src', false],
    ['/g/p/-/blob/main/README.md', false],
    ['/g/p/-/commits/main', false],
    ['/g/p/-/commit/abc123', false],
    ['/g/p/-/branches', false],
    ['/g/p/-/project_members', false],
    ['/g/p/-/merge_requests', false],
    ['/g/p/-/merge_requests/3', false],
    ['/g/p/-/merge_requests/3/commits', false],
    ['/g/p/-/merge_requests/3/diffs', false],
    ['/g/p/-/merge_requests/3/edit', true],
    ['/g/p/-/merge_requests/new', true],
    ['/g/p/-/forks/new', true],
    ['/g/p/-/edit/main/README.md', true],
    ['/g/p/-/nonsense', false],
  ])('%s → %s', (path, expected) => expect(projectPageNeedsUser(pageOf(path))).toBe(expected));
});
