/**
 * A merged results pipeline that fails only because of the target's change, with `tributary
 * runner` as a real child process running the jobs' scripts: the source branch alone passes
 * (its branch pipeline), the target branch moves on with a change the source does not know, and
 * the merge request's merged results pipeline — run on the trial merge of both — fails; the
 * merge request's widget shows it as its head pipeline ('Merged results pipeline', failed) and
 * CI_MUST_PASS refuses the merge while pipelines must succeed.
 */
import { MERGE_REQUEST_WIDGET_QUERY } from '@tributary/contracts';
import { describe, expect, it } from 'vitest';
import { graphql } from '../api/graphql/testing.js';
import { testDatabaseKind } from '../test-support/database.js';
import { eventually } from '../test-support/eventually.js';
import { runnerHarness } from '../test-support/runner-process.js';

// The check passes unless the tree holds both the feature and the target's new limit.
const CI = `
check:
  script:
    - if [ -f feature.txt ] && [ -f limit.txt ]; then echo "feature.txt breaks the limit"; exit 1; fi
    - echo all good
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_PIPELINE_SOURCE == "push"
`;

describe(`a merged results pipeline that fails because of the target's change (${testDatabaseKind()})`, () => {
  const harness = runnerHarness('merged-results-');

  it('passes on the source branch, fails on the trial merge, and the widget and the merge checks say so', async () => {
    const fx = harness.fx();
    const project = await fx.createProject('merged-results');
    await harness.startRunner(project.id, { concurrent: 2, name: 'merged-results' });
    type Pipeline = { id: number; ref: string; sha: string; status: string; source: string };
    const pipelines = async () => (await fx.call<Pipeline[]>('GET', `/projects/${project.id}/pipelines?per_page=100`)).body;
    const finished = (pipeline: Pipeline | undefined) => (pipeline && ['success', 'failed'].includes(pipeline.status) ? pipeline : undefined);
    const explain = async (error: Error) => {
      throw new Error(`${error.message}\npipelines: ${JSON.stringify(await pipelines())}\nrunner output:\n${harness.output()}`);
    };

    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CI, 'Add CI');
    await fx.call('PUT', `/projects/${project.id}`, { body: { merge_pipelines_enabled: true, only_allow_merge_if_pipeline_succeeds: true } });
    // the source branch alone passes
    await fx.root.RepositoryFiles.create(project.id, 'feature.txt', 'feature', 'feature\n', 'Add the feature', { startBranch: 'main' });
    const branchPipeline = await eventually(async () => finished((await pipelines()).find((p) => p.ref === 'feature' && p.source === 'push')), 90_000).catch(explain);
    expect(branchPipeline.status).toBe('success');
    // the target moves on with a change the source does not know
    await fx.root.RepositoryFiles.create(project.id, 'limit.txt', 'main', 'limit\n', 'Add the limit');
    const { iid } = await fx.root.MergeRequests.create(project.id, 'feature', 'main', 'Add the feature');

    const merged = await eventually(async () => finished((await pipelines()).find((p) => p.ref === `refs/merge-requests/${iid}/merge`)), 120_000).catch(explain);
    expect(merged.status).toBe('failed');
    const [job] = (await fx.call<{ id: number; name: string }[]>('GET', `/projects/${project.id}/pipelines/${merged.id}/jobs`)).body;
    expect((await fx.call('GET', `/projects/${project.id}/jobs/${job!.id}/trace`)).raw.toString()).toContain('feature.txt breaks the limit');
    // the source branch's own pipeline still passes
    expect((await pipelines()).find((p) => p.id === branchPipeline.id)!.status).toBe('success');

    const widget = await eventually(async () => {
      const answer = await graphql(fx.server.url, MERGE_REQUEST_WIDGET_QUERY, { projectPath: project.path_with_namespace, iid: String(iid) }, { token: fx.server.root.token });
      const mr = answer.body.data.project.mergeRequest;
      return mr.headPipeline?.status === 'FAILED' ? mr : undefined;
    });
    expect(widget.headPipeline).toMatchObject({ eventTypeName: 'Merged results pipeline', mergeRequestEventType: 'MERGED_RESULT' });
    expect(widget.detailedMergeStatus).toBe('CI_MUST_PASS');
    expect((await fx.call('PUT', `/projects/${project.id}/merge_requests/${iid}/merge`)).status).toBe(405);
  }, 300_000);
});
