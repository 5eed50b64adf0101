import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessLevel } from '@tributary/contracts';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { eventually } from '../../../../test-support/eventually.js';
import { gitbeakerClient, type TestUser } from '../../../../test-support/server.js';
import { graphql } from '../../../graphql/testing.js';

const NO_ONE = 0;

/**
 * "May merge into this branch" is one rule (canMergeIntoBranch, GitLab's can_be_merged_by?: the
 * push rule or the merge rule of a protected target branch). Every surface answers it alike over
 * the access matrix and the protected-branch settings: REST `user.can_merge`, GraphQL
 * `userPermissions.canMerge`, the widget endpoint's `can_merge`, `PUT …/merge` itself (401 when
 * refused) and collaboration (a commit to the fork's source branch allowing it).
 */
describe(`one merge rule on every surface (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let upstream: { id: number; path_with_namespace: string };
  let fork: { id: number };
  let iid: number;
  const users: Record<'reporter' | 'developer' | 'maintainer', TestUser> = {} as never;
  const levels = { reporter: AccessLevel.Reporter, developer: AccessLevel.Developer, maintainer: AccessLevel.Maintainer };
  let counter = 0;

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    upstream = await fx.createProject('merge-rule', { visibility: 'public' });
    for (const role of ['reporter', 'developer', 'maintainer'] as const) users[role] = await fx.member(upstream.id, levels[role]);
    const alice = await fx.server.createUser();
    const aliceApi = gitbeakerClient(fx.server.url, alice.token);
    fork = { id: (await aliceApi.Projects.fork(upstream.id)).id as number };
    await aliceApi.Commits.create(fork.id, 'feature', 'Fork work', [{ action: 'create', filePath: 'fork.txt', content: 'fork\n' }], { startBranch: 'main' });
    iid = (await aliceApi.MergeRequests.create(fork.id, 'feature', 'main', 'From the fork', { targetProjectId: upstream.id, allowCollaboration: true })).iid as number;
    await eventually(async () => (await fx.root.MergeRequests.show(upstream.id, iid)).detailed_merge_status === 'mergeable');
  });
  afterAll(() => fx?.close());

  async function protect(setting: { push: number; merge: number } | null): Promise<void> {
    await fx.call('DELETE', `/projects/${upstream.id}/protected_branches/main`);
    if (setting) {
      const created = await fx.call('POST', `/projects/${upstream.id}/protected_branches`, { body: { name: 'main', push_access_level: setting.push, merge_access_level: setting.merge } });
      expect(created.status).toBe(201);
    }
  }

  async function surfaces(user: TestUser): Promise<Record<string, boolean>> {
    const rest = await fx.call('GET', `/projects/${upstream.id}/merge_requests/${iid}`, { token: user.token });
    const gql = await graphql(
      fx.server.url,
      'query($path: ID!, $iid: String!) { project(fullPath: $path) { mergeRequest(iid: $iid) { userPermissions { canMerge } } } }',
      { path: upstream.path_with_namespace, iid: String(iid) },
      { token: user.token },
    );
    const widget = await fetch(`${fx.server.url}/${upstream.path_with_namespace}/-/merge_requests/${iid}/widget.json`, { headers: { 'private-token': user.token } });
    // A wrong sha: a permitted caller passes the rule and is stopped by the sha check; nothing merges.
    const merge = await fx.call('PUT', `/projects/${upstream.id}/merge_requests/${iid}/merge`, { token: user.token, body: { sha: 'f'.repeat(40) } });
    const collaboration = await fx.call('POST', `/projects/${fork.id}/repository/files/${encodeURIComponent(`upstream-${++counter}.txt`)}`, {
      token: user.token,
      body: { branch: 'feature', content: 'from upstream\n', commit_message: 'Upstream fix' },
    });
    expect([201, 403]).toContain(collaboration.status);
    return {
      rest: rest.body.user.can_merge,
      graphql: gql.body.data.project.mergeRequest.userPermissions.canMerge,
      widget: ((await widget.json()) as { current_user: { can_merge: boolean } }).current_user.can_merge,
      merge: merge.status !== 401,
      collaboration: collaboration.status === 201,
    };
  }

  // [main's protection (push, merge) or none, the lowest role that may merge into it]
  const settings: Array<[string, { push: number; merge: number } | null, number | null]> = [
    ['unprotected', null, AccessLevel.Developer],
    ['push Developers, merge Maintainers', { push: AccessLevel.Developer, merge: AccessLevel.Maintainer }, AccessLevel.Developer],
    ['push Maintainers, merge Developers', { push: AccessLevel.Maintainer, merge: AccessLevel.Developer }, AccessLevel.Developer],
    ['push Maintainers, merge Maintainers', { push: AccessLevel.Maintainer, merge: AccessLevel.Maintainer }, AccessLevel.Maintainer],
    ['push No one, merge No one', { push: NO_ONE, merge: NO_ONE }, null],
  ];

  it.each(settings)('%s: every surface answers alike for Reporter, Developer and Maintainer', async (_, setting, lowest) => {
    await protect(setting);
    for (const role of ['reporter', 'developer', 'maintainer'] as const) {
      const expected = lowest !== null && levels[role] >= lowest;
      const answers = await surfaces(users[role]);
      expect(answers, role).toEqual({ rest: expected, graphql: expected, widget: expected, merge: expected, collaboration: expected });
    }
    expect((await fx.root.MergeRequests.show(upstream.id, iid)).state).toBe('opened');
  });
});
