import { describe, expect, it } from 'vitest';
import { parentDir, parseNewMergeRequestParams, parseProjectPage, safeRedirectPath, settingsEditPath, splitAtDash, urls } from './routes';

describe('splitAtDash', () => {
  it('splits nested group paths from the sub-page', () => {
    expect(splitAtDash('/group/sub/proj/-/tree/main/src')).toEqual({
      fullPath: 'group/sub/proj',
      rest: ['tree', 'main', 'src'],
    });
  });

  it('has no rest without /-/', () => {
    expect(splitAtDash('/group/proj/')).toEqual({ fullPath: 'group/proj', rest: null });
  });

  it('decodes each segment', () => {
    expect(splitAtDash('/g/p/-/blob/main/docs/a%20b%23c.md')).toEqual({
      fullPath: 'g/p',
      rest: ['blob', 'main', 'docs', 'a b#c.md'],
    });
  });

  it('keeps a later "-" directory inside the file path', () => {
    expect(splitAtDash('/g/p/-/tree/main/-/x').rest).toEqual(['tree', 'main', '-', 'x']);
  });
});

describe('parseProjectPage', () => {
  it.each([
    [null, { kind: 'overview' }],
    [[], { kind: 'overview' }],
    [['tree', 'feature', 'x', 'src'], { kind: 'tree', refAndPath: 'feature/x/src' }],
    [['tree'], { kind: 'overview' }],
    [['blob', 'main', 'README.md'], { kind: 'blob', refAndPath: 'main/README.md' }],
    [['blob'], { kind: 'unknown' }],
    [['commits', 'main'], { kind: 'commits', refAndPath: 'main' }],
    [['commits'], { kind: 'commits', refAndPath: '' }],
    [['commit', 'abc123'], { kind: 'commit', sha: 'abc123' }],
    [['branches'], { kind: 'branches' }],
    [['project_members'], { kind: 'members' }],
    [['labels'], { kind: 'labels' }],
    [['milestones'], { kind: 'milestones' }],
    [['labels', 'x'], { kind: 'unknown' }],
    [['issues'], { kind: 'unknown' }],
    [['merge_requests'], { kind: 'merge-requests' }],
    [['merge_requests', 'new'], { kind: 'new-merge-request' }],
    [['merge_requests', '12'], { kind: 'merge-request', iid: 12, tab: 'overview' }],
    [['merge_requests', '12', 'commits'], { kind: 'merge-request', iid: 12, tab: 'commits' }],
    [['merge_requests', '12', 'diffs'], { kind: 'merge-request', iid: 12, tab: 'diffs' }],
    [['merge_requests', '12', 'pipelines'], { kind: 'merge-request', iid: 12, tab: 'pipelines' }],
    [['merge_requests', '12', 'edit'], { kind: 'merge-request', iid: 12, tab: 'edit' }],
    [['merge_requests', '12', 'pipelines', 'x'], { kind: 'unknown' }],
    [['merge_requests', '0'], { kind: 'unknown' }],
    [['merge_requests', 'abc'], { kind: 'unknown' }],
    [['merge_requests', '12', 'diffs', 'x'], { kind: 'unknown' }],
    [['pipelines'], { kind: 'pipelines' }],
    [['pipelines', 'new'], { kind: 'new-pipeline' }],
    [['pipelines', '7'], { kind: 'pipeline', id: 7, tab: 'graph' }],
    [['pipelines', '7', 'builds'], { kind: 'pipeline', id: 7, tab: 'builds' }],
    [['pipelines', '7', 'failures'], { kind: 'pipeline', id: 7, tab: 'failures' }],
    [['pipelines', '7', 'test_report'], { kind: 'pipeline', id: 7, tab: 'test_report' }],
    [['pipelines', '7', 'manual_variables'], { kind: 'pipeline', id: 7, tab: 'manual_variables' }],
    [['pipelines', '7', 'security'], { kind: 'unknown' }],
    [['pipelines', '0'], { kind: 'unknown' }],
    [['jobs'], { kind: 'jobs' }],
    [['jobs', '42'], { kind: 'job', id: 42 }],
    [['jobs', 'x'], { kind: 'unknown' }],
    [['new', 'main', 'docs'], { kind: 'new-file', refAndPath: 'main/docs' }],
    [['new'], { kind: 'unknown' }],
    [['environments'], { kind: 'environments' }],
    [['environments', '7'], { kind: 'environment', id: 7 }],
    [['environments', '7', 'x'], { kind: 'unknown' }],
    [['environments', 'folders'], { kind: 'unknown' }],
    [['merge_trains'], { kind: 'merge-trains' }],
    [['merge_trains', 'main'], { kind: 'unknown' }],
    [['forks', 'new'], { kind: 'new-fork' }],
    [['forks'], { kind: 'unknown' }],
    [['edit', 'main', 'src', 'a.ts'], { kind: 'edit', refAndPath: 'main/src/a.ts' }],
  ] as const)('%j', (rest, expected) => {
    expect(parseProjectPage(rest === null ? null : [...rest])).toEqual(expected);
  });
});

describe('urls', () => {
  it('builds GitLab-shaped project URLs with encoded segments', () => {
    expect(urls.project('g/sub/p')).toBe('/g/sub/p');
    expect(urls.tree('g/p', 'feature/x', 'src/lib')).toBe('/g/p/-/tree/feature/x/src/lib');
    expect(urls.tree('g/p', 'main')).toBe('/g/p/-/tree/main');
    expect(urls.blob('g/p', 'main', 'docs/a b#c.md')).toBe('/g/p/-/blob/main/docs/a%20b%23c.md');
    expect(urls.commits('g/p', 'main', 'src')).toBe('/g/p/-/commits/main/src');
    expect(urls.commit('g/p', 'abc')).toBe('/g/p/-/commit/abc');
    expect(urls.pipeline('g/p', 7)).toBe('/g/p/-/pipelines/7');
    expect(urls.pipeline('g/p', 7, 'failures')).toBe('/g/p/-/pipelines/7/failures');
    expect(urls.job('g/p', 42)).toBe('/g/p/-/jobs/42');
    expect(urls.newFile('g/p', 'main')).toBe('/g/p/-/new/main');
    expect(urls.newFile('g/p', 'feature/x', 'docs/api', { file_name: '.gitlab-ci.yml' })).toBe('/g/p/-/new/feature/x/docs/api?file_name=.gitlab-ci.yml');
    expect(urls.environments('g/p')).toBe('/g/p/-/environments');
    expect(urls.environments('g/p', 'stopped')).toBe('/g/p/-/environments?scope=stopped');
    expect(urls.environment('g/p', 7)).toBe('/g/p/-/environments/7');
    expect(urls.branches('g/p')).toBe('/g/p/-/branches');
    expect(urls.projectMembers('g/p')).toBe('/g/p/-/project_members');
    expect(urls.groupMembers('g/sub')).toBe('/groups/g/sub/-/group_members');
    expect(urls.groupLabels('g/sub')).toBe('/groups/g/sub/-/labels');
    expect(urls.groupMilestones('g/sub')).toBe('/groups/g/sub/-/milestones');
    expect(urls.signIn('/g/p')).toBe('/users/sign_in?redirect=%2Fg%2Fp');
    expect(urls.signIn('/')).toBe('/users/sign_in');
  });

  it('round-trips through splitAtDash and parseProjectPage', () => {
    const url = urls.blob('g/p', 'feature/x', 'a b/c#d.ts');
    const { fullPath, rest } = splitAtDash(url);
    expect(fullPath).toBe('g/p');
    expect(parseProjectPage(rest)).toEqual({ kind: 'blob', refAndPath: 'feature/x/a b/c#d.ts' });
  });
});

describe('merge request URLs', () => {
  it('builds list, tab, new and fork URLs', () => {
    expect(urls.mergeRequests('g/p')).toBe('/g/p/-/merge_requests');
    expect(urls.mergeRequests('g/p', new URLSearchParams('state=merged'))).toBe('/g/p/-/merge_requests?state=merged');
    expect(urls.mergeRequest('g/p', 3)).toBe('/g/p/-/merge_requests/3');
    expect(urls.mergeRequest('g/p', 3, 'diffs', new URLSearchParams('diff_id=9'))).toBe('/g/p/-/merge_requests/3/diffs?diff_id=9');
    expect(urls.newFork('g/p')).toBe('/g/p/-/forks/new');
    expect(urls.edit('g/p', 'feature/x', 'src/a b.ts')).toBe('/g/p/-/edit/feature/x/src/a%20b.ts');
    expect(urls.dashboardMergeRequests()).toBe('/dashboard/merge_requests');
  });

  it('round-trips the new merge request parameters', () => {
    const url = urls.newMergeRequest('g/p', { source_branch: 'feature/x', target_branch: 'main', target_project_id: 4 });
    expect(url).toBe('/g/p/-/merge_requests/new?merge_request%5Bsource_branch%5D=feature%2Fx&merge_request%5Btarget_branch%5D=main&merge_request%5Btarget_project_id%5D=4');
    const search = new URLSearchParams(url.slice(url.indexOf('?')));
    expect(parseNewMergeRequestParams(search)).toEqual({ source_branch: 'feature/x', target_branch: 'main', source_project_id: undefined, target_project_id: 4 });
    expect(parseNewMergeRequestParams(new URLSearchParams('merge_request[target_project_id]=-1')).target_project_id).toBeUndefined();
  });
});

describe('safeRedirectPath', () => {
  it.each([
    ['/g/p', '/g/p'],
    [null, '/'],
    ['', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example', '/'],
    ['/users/sign_in', '/'],
  ])('%s → %s', (input, expected) => expect(safeRedirectPath(input)).toBe(expected));
});

describe('parentDir', () => {
  it.each([
    ['a/b/c', 'a/b'],
    ['a', ''],
    ['', ''],
  ])('%s → %s', (input, expected) => expect(parentDir(input)).toBe(expected));
});

describe('settings URLs', () => {
  it('builds GitLab\'s settings URLs', () => {
    expect(urls.projectSettings('g/p')).toBe('/g/p/edit');
    expect(urls.projectSettings('g/p', 'repository')).toBe('/g/p/-/settings/repository');
    expect(urls.projectSettings('g/p', 'merge_requests')).toBe('/g/p/-/settings/merge_requests');
    expect(urls.projectSettings('g/p', 'ci_cd')).toBe('/g/p/-/settings/ci_cd');
    expect(urls.groupSettings('g/sub')).toBe('/groups/g/sub/-/edit');
    expect(urls.projectSettings('g/p', 'ci_cd')).toBe('/g/p/-/settings/ci_cd');
    expect(urls.groupCiCdSettings('g/sub')).toBe('/groups/g/sub/-/settings/ci_cd');
  });

  it.each([
    [['settings', 'repository'], { kind: 'settings', section: 'repository' }],
    [['settings', 'merge_requests'], { kind: 'settings', section: 'merge_requests' }],
    [['settings'], { kind: 'unknown' }],
    [['settings', 'ci_cd'], { kind: 'settings', section: 'ci_cd' }],
    [['settings', 'ci_cd', 'x'], { kind: 'unknown' }],
    [['settings', 'repository', 'x'], { kind: 'unknown' }],
  ])('parses %j', (rest, page) => expect(parseProjectPage(rest)).toEqual(page));

  it.each([
    ['/g/p/edit', 'g/p'],
    ['/g/sub/p/edit', 'g/sub/p'],
    ['/g/edit', null],
    ['/g/p', null],
    ['/g/p/-/edit/main/a.txt', null],
  ])('%s is the General settings of %j', (pathname, project) => expect(settingsEditPath(splitAtDash(pathname))).toBe(project));
});
