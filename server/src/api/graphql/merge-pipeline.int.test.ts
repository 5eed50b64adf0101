/**
 * The widget's post-merge pipeline (MergeRequest.mergePipeline, the REST payload's merge_pipeline):
 * the target branch's pipeline for the commit a merged request landed as, with the project it ran
 * in; null before the merge and for a caller who may not read pipelines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { eventually } from '../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../test-support/repository-fixtures.js';
import { graphql } from './testing.js';

const CONFIG = ['build:', '  script: make', '  rules:', '    - if: $CI_COMMIT_BRANCH == "main"', ''].join('\n');

const QUERY = `query($p: ID!, $iid: String!) { project(fullPath: $p) { mergeRequest(iid: $iid) { state mergeCommitSha mergePipeline { id sha ref status project { id fullPath } } } } }`;

describe(`the post-merge pipeline (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let iid: number;
  const read = async (token: string) => (await graphql(fx.server.url, QUERY, { p: project.path_with_namespace, iid: String(iid) }, { token })).body.data?.project?.mergeRequest;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('post-merge');
    await fx.call('POST', `/projects/${project.id}/repository/files/.gitlab-ci.yml`, { body: { branch: 'main', content: CONFIG, commit_message: 'Add CI' } });
    await fx.call('POST', `/projects/${project.id}/repository/files/feature.txt`, { body: { branch: 'feature', start_branch: 'main', content: 'feature\n', commit_message: 'Add the feature' } });
    iid = (await fx.call<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { body: { source_branch: 'feature', target_branch: 'main', title: 'Add the feature' } })).body.iid;
  }, 60_000);

  afterAll(async () => {
    await fx?.close();
  });

  it('is null while the request is open, then the merge commit’s pipeline on the target branch', async () => {
    expect((await read(fx.server.root.token)).mergePipeline).toBeNull();
    await eventually(async () => (await fx.call('PUT', `/projects/${project.id}/merge_requests/${iid}/merge`)).status === 200);
    const merged = await read(fx.server.root.token);
    expect(merged.state).toBe('merged');
    const answer = await eventually(async () => (await read(fx.server.root.token)).mergePipeline);
    expect(answer).toMatchObject({ sha: merged.mergeCommitSha, ref: 'main', project: { id: `gid://gitlab/Project/${project.id}`, fullPath: project.path_with_namespace } });
  });

  it('is null for those who may not read pipelines: a stranger, then (public pipelines off) a Guest of a public project', async () => {
    const guest = await fx.member(project.id, 10);
    const stranger = await fx.server.createUser();
    // private: the stranger sees no merge request at all
    expect(await read(stranger.token)).toBeUndefined();

    await fx.call('PUT', `/projects/${project.id}`, { body: { visibility: 'public', public_builds: false } });
    const forStranger = await read(stranger.token);
    expect(forStranger.state).toBe('merged');
    expect(forStranger.mergePipeline).toBeNull();
    expect((await read(guest.token)).mergePipeline).toBeNull();
    const reporter = await fx.member(project.id, 20);
    expect((await read(reporter.token)).mergePipeline).not.toBeNull();
  });
});
