import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL_INTERVAL_HEADER, WIDGET_POLLING } from '@tributary/contracts';
import { testDatabaseKind } from '../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../test-support/merge-request-fixtures.js';
import { eventually } from '../../test-support/eventually.js';
import { signIn } from '../graphql/testing.js';

/** GET /:full_path/-/merge_requests/:iid/widget.json: the page's polling fallback, with GitLab's Poll-Interval header. */
describe(`merge request widget endpoint (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number; path_with_namespace: string };
  let mr: { id: number; iid: number; sha: string };
  const get = (path: string, headers: Record<string, string> = { 'private-token': fx.server.root.token }) => fetch(`${fx.server.url}/${path}`, { headers });

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    const group = await fx.root.Groups.create('Widget group', 'widget-group');
    const sub = await fx.root.Groups.create('Nested', 'nested', { parentId: group.id as number });
    const created = await fx.root.Projects.create({ name: 'widget-app', namespaceId: sub.id as number, initializeWithReadme: true });
    project = { id: created.id as number, path_with_namespace: created.path_with_namespace as string };
    const main = await fx.tip(project.id, 'main');
    const head = await fx.writeCommit(project.id, { parent: main, files: [{ path: 'feature.txt', content: 'feature\n' }], message: 'Add the feature' });
    await fx.setBranch(project.id, 'feature', head);
    const opened = await fx.root.MergeRequests.create(project.id, 'feature', 'main', 'Feature');
    mr = { id: opened.id as number, iid: opened.iid as number, sha: head };
    await eventually(async () => (await fx.root.MergeRequests.show(project.id, mr.iid)).detailed_merge_status === 'mergeable');
  });
  afterAll(() => fx?.close());

  it('answers the widget data with a Poll-Interval header in milliseconds, for a project in nested groups', async () => {
    expect(project.path_with_namespace).toBe('widget-group/nested/widget-app');
    const response = await get(`${project.path_with_namespace}/-/merge_requests/${mr.iid}/widget.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get(POLL_INTERVAL_HEADER)).toBe(String(WIDGET_POLLING.defaultIntervalMs));
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { mergeability_checks: unknown[] };
    expect(body).toMatchObject({
      id: mr.id,
      iid: mr.iid,
      title: 'Feature',
      state: 'opened',
      source_branch: 'feature',
      target_branch: 'main',
      source_branch_exists: true,
      target_branch_exists: true,
      branch_missing: false,
      diff_head_sha: mr.sha,
      target_branch_sha: await fx.tip(project.id, 'main'),
      target_project_id: project.id,
      target_project_full_path: project.path_with_namespace,
      source_project_id: project.id,
      project_archived: false,
      ff_only_enabled: false,
      squash_readonly: false,
      default_merge_commit_message: `Merge branch 'feature' into 'main'\n\nFeature\n\nSee merge request ${project.path_with_namespace}!${mr.iid}`,
      default_squash_commit_message: 'Feature',
      commits_count: 1,
      commits_without_merge_commits: [{ id: mr.sha, short_id: mr.sha.slice(0, 8), title: 'Add the feature' }],
      merge_status: 'can_be_merged',
      detailed_merge_status: 'mergeable',
      mergeable: true,
      diverged_commits_count: 0,
      rebase_in_progress: false,
      merge_ongoing: false,
      merge_error: null,
      human_access: 'Owner',
      metrics: { merged_by: null, merged_at: null, closed_by: null, closed_at: null },
      current_user: { can_merge: true, can_remove_source_branch: true, can_revert_on_current_merge_request: false },
    });
    expect(body.mergeability_checks).toEqual(expect.arrayContaining([{ identifier: 'CONFLICT', status: 'SUCCESS' }]));
  });

  it('answers the web session (the page polls with its cookie)', async () => {
    const session = await signIn(fx.server.url, 'root', fx.server.root.password);
    const response = await get(`${project.path_with_namespace}/-/merge_requests/${mr.iid}/widget.json`, { cookie: session.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get(POLL_INTERVAL_HEADER)).toBe('10000');
  });

  it('is a 404 for what the caller may not see, the same as for what does not exist', async () => {
    const stranger = await fx.server.createUser();
    const path = `${project.path_with_namespace}/-/merge_requests/${mr.iid}/widget.json`;
    const hidden = await get(path, { 'private-token': stranger.token });
    const anonymous = await get(path, {});
    const absentProject = await get(`widget-group/nested/nothing/-/merge_requests/${mr.iid}/widget.json`);
    const absentRequest = await get(`${project.path_with_namespace}/-/merge_requests/999/widget.json`);
    for (const response of [hidden, anonymous, absentProject, absentRequest]) {
      expect(response.status).toBe(404);
      expect(response.headers.get(POLL_INTERVAL_HEADER)).toBeNull();
      expect(await response.json()).toEqual({ message: '404 Not Found' });
    }
  });

  it('leaves other paths to the git routes and the web app', async () => {
    const page = await get(`${project.path_with_namespace}/-/merge_requests/${mr.iid}`);
    expect(page.headers.get(POLL_INTERVAL_HEADER)).toBeNull();
    const refs = await get(`${project.path_with_namespace}.git/info/refs?service=git-upload-pack`, { authorization: `Basic ${Buffer.from(`root:${fx.server.root.token}`).toString('base64')}` });
    expect(refs.status).toBe(200);
  });
});
