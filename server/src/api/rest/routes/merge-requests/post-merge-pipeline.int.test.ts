/**
 * The post-merge pipeline live: once a merge request is merged, its widget shows the target
 * branch's pipeline at the merge commit (mergePipeline), and every move of that pipeline's jobs
 * announces merge_request.changed for the merged request in the job's transaction, so the open
 * page's subscription hears it as it heard the head pipeline before the merge.
 */
import { MERGE_REQUEST_WIDGET_QUERY } from '@tributary/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { eventually } from '../../../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../../test-support/repository-fixtures.js';
import { countRows } from '../../../../test-support/rest-fixtures.js';
import { graphql } from '../../../graphql/testing.js';

const CONFIG = 'build:\n  script: make\n';

describe(`the post-merge pipeline, live (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  const services = () => fx.server.app.services;
  const jobs = async () => (await fx.root.Jobs.all(project.id)) as unknown as { id: number; name: string; status: string; pipeline: { sha: string; ref: string } }[];
  const announced = (mergeRequestId: number) => countRows(fx.server, 'domain_events', `type = 'merge_request.changed' AND payload->>'mergeRequestId' = $1`, [String(mergeRequestId)]);
  const widget = async (iid: number) =>
    (await graphql(fx.server.url, MERGE_REQUEST_WIDGET_QUERY, { projectPath: project.path_with_namespace, iid: String(iid) }, { token: fx.server.root.token })).body.data.project.mergeRequest;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('post-merge');
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
  });
  afterAll(() => fx?.close());

  async function mergedRequest(branch: string, options: { squash?: boolean } = {}) {
    await fx.root.RepositoryFiles.create(project.id, `${branch}.txt`, branch, `${branch}\n`, `Add ${branch}`, { startBranch: 'main' });
    const built = await eventually(async () => (await jobs()).find((job) => job.pipeline.ref === branch && job.status === 'pending'));
    await services().pipelineEngine.transitionJob(built.id, 'success');
    const created = await fx.root.MergeRequests.create(project.id, branch, 'main', `Add ${branch}`);
    await eventually(async () => (await fx.root.MergeRequests.show(project.id, created.iid)).detailed_merge_status === 'mergeable');
    const merged = (await fx.root.MergeRequests.merge(project.id, created.iid, options.squash ? { squash: true } : {})) as unknown as { id: number; iid: number; merge_commit_sha: string | null; squash_commit_sha: string | null; sha: string };
    const landed = merged.merge_commit_sha ?? merged.squash_commit_sha ?? merged.sha;
    const postMerge = await eventually(async () => (await jobs()).find((job) => job.pipeline.ref === 'main' && job.pipeline.sha === landed && job.status === 'pending'));
    return { merged, postMerge };
  }

  it('announces every move of the post-merge pipeline to the merged request, and the widget reads it', async () => {
    const { merged, postMerge } = await mergedRequest('feature');
    expect((await widget(merged.iid)).mergePipeline).toMatchObject({ status: 'PENDING' });

    const before = await announced(merged.id);
    await services().pipelineEngine.transitionJob(postMerge.id, 'run');
    expect(await announced(merged.id)).toBeGreaterThan(before);
    expect((await widget(merged.iid)).mergePipeline).toMatchObject({ status: 'RUNNING' });

    const running = await announced(merged.id);
    await services().pipelineEngine.transitionJob(postMerge.id, 'success');
    expect(await announced(merged.id)).toBeGreaterThan(running);
    expect((await widget(merged.iid)).mergePipeline).toMatchObject({ status: 'SUCCESS' });
  });

  it('finds a squashed merge request by the commit it landed as, and leaves other merged requests alone', async () => {
    const first = await mergedRequest('earlier');
    await services().pipelineEngine.transitionJob(first.postMerge.id, 'success');
    const { merged, postMerge } = await mergedRequest('squashed', { squash: true });
    const [mine, other] = [await announced(merged.id), await announced(first.merged.id)];
    await services().pipelineEngine.transitionJob(postMerge.id, 'run');
    expect(await announced(merged.id)).toBeGreaterThan(mine);
    expect(await announced(first.merged.id)).toBe(other);
  });
});
