import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MERGE_REQUEST_WIDGET_QUERY } from '@tributary/contracts';
import { testDatabaseKind } from '../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../test-support/merge-request-fixtures.js';
import { eventually } from '../../test-support/eventually.js';
import type { GitCli } from '../../test-support/server.js';
import { graphql } from './testing.js';

/**
 * Whole widget answers are kept per caller (response-cache.ts). These tests warm the cache
 * and then change what the answer is built from: the next query must show the change.
 */
describe(`GraphQL answers kept between changes (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number; path_with_namespace: string };
  let git: GitCli;
  let iid: number;
  const sh = (args: string[]) => git.git(args, { cwd: 'work' });
  const widget = async (token: string) => {
    const answer = await graphql(fx.server.url, MERGE_REQUEST_WIDGET_QUERY, { projectPath: project.path_with_namespace, iid: String(iid) }, { token });
    expect(answer.status).toBe(200);
    return answer.body.data.project?.mergeRequest ?? null;
  };

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('gql-cache');
    git = fx.rootGit();
    await git.git(['clone', '-q', git.repoUrl(project.path_with_namespace), 'work']);
    await sh(['checkout', '-q', '-b', 'topic']);
    writeFileSync(join(git.dir, 'work', 'a.txt'), 'a\n');
    await sh(['add', '-A']);
    await sh(['commit', '-q', '-m', 'First']);
    await sh(['push', '-q', git.repoUrl(project.path_with_namespace), 'topic']);
    iid = (await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Cached title')).iid as number;
    await eventually(async () => (await fx.root.MergeRequests.show(project.id, iid)).detailed_merge_status === 'mergeable');
  });
  afterAll(() => fx?.close());

  it('shows an edited title and a draft status on the next query', async () => {
    const token = fx.server.root.token;
    expect((await widget(token)).title).toBe('Cached title');
    expect((await widget(token)).title).toBe('Cached title');
    await fx.root.MergeRequests.edit(project.id, iid, { title: 'Draft: Edited title' });
    const next = await widget(token);
    expect(next.title).toBe('Draft: Edited title');
    expect(next.detailedMergeStatus).toBe('DRAFT_STATUS');
    await fx.root.MergeRequests.edit(project.id, iid, { title: 'Cached title' });
  });

  it('takes the merge request away from a removed member, and merge rights from a lowered one, at once', async () => {
    const developer = await fx.member(project.id, 40);
    expect((await widget(developer.token)).userPermissions.canMerge).toBe(true);
    expect((await fx.call('PUT', `/projects/${project.id}/members/${developer.id}`, { body: { access_level: 20 } })).status).toBe(200);
    expect((await widget(developer.token)).userPermissions.canMerge).toBe(false);
    expect((await fx.call('DELETE', `/projects/${project.id}/members/${developer.id}`)).status).toBe(204);
    expect(await widget(developer.token)).toBeNull();
  });

  it('follows a protected target branch rule change at once', async () => {
    const developer = await fx.member(project.id, 30);
    expect((await widget(developer.token)).userPermissions.canMerge).toBe(false);
    await fx.call('DELETE', `/projects/${project.id}/protected_branches/main`);
    expect((await widget(developer.token)).userPermissions.canMerge).toBe(true);
    await fx.call('POST', `/projects/${project.id}/protected_branches`, { body: { name: 'main', push_access_level: 40, merge_access_level: 40 } });
    expect((await widget(developer.token)).userPermissions.canMerge).toBe(false);
  });

  it('shows a pushed head once the push is announced', async () => {
    const token = fx.server.root.token;
    const before = (await widget(token)).diffHeadSha;
    writeFileSync(join(git.dir, 'work', 'b.txt'), 'b\n');
    await sh(['add', '-A']);
    await sh(['commit', '-q', '-m', 'Second']);
    await sh(['push', '-q', git.repoUrl(project.path_with_namespace), 'topic']);
    const head = (await sh(['rev-parse', 'HEAD'])).stdout.trim();
    expect(head).not.toBe(before);
    await eventually(async () => (await widget(token)).diffHeadSha === head, 10_000);
  });
});
