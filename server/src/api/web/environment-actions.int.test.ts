import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { eventually } from '../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../test-support/repository-fixtures.js';
import type { TestUser } from '../../test-support/server.js';

/**
 * The merge widget's deployments (GitLab's `ci_environments_status`) and their inline actions,
 * against real pipelines: a merge request whose branch deploys a review app (it succeeds) and
 * offers a manual staging deploy.
 */
const CONFIG = `review:
  script: [deploy]
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    url: https://$CI_COMMIT_REF_SLUG.example.com
  rules:
    - if: $CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH != "main"
staging:
  script: [deploy]
  environment: staging
  rules:
    - if: $CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH != "main"
      when: manual
`;

interface EnvironmentStatus {
  id: number;
  name: string;
  status: string;
  url: string;
  stop_url?: string;
  retry_url?: string;
  external_url: string | null;
  external_url_formatted: string | null;
  deployed_at: string | null;
  deployed_at_formatted: string | null;
  details: { playable_build?: { play_path: string; retry_path: string } };
  environment_available: boolean;
  changes: unknown[];
}

describe(`merge request environments status and actions (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let project: { id: number; path_with_namespace: string };
  let iid: number;
  let reporter: TestUser;
  const services = () => fx.server.app.services;
  const send = (method: string, path: string, token: string | null = fx.server.root.token) =>
    fetch(`${fx.server.url}/${path}`, { method, headers: token ? { 'private-token': token } : {} });
  const statuses = async (token: string | null = fx.server.root.token, target = '') => {
    const response = await send('GET', `${project.path_with_namespace}/-/merge_requests/${iid}/ci_environments_status${target}`, token);
    return { status: response.status, body: (await response.json()) as EnvironmentStatus[] };
  };
  const jobs = async () => (await fx.root.Jobs.all(project.id)) as unknown as { id: number; name: string; status: string }[];

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    project = await fx.createProject('deploys');
    await fx.root.RepositoryFiles.create(project.id, '.gitlab-ci.yml', 'main', CONFIG, 'Add CI');
    await fx.root.RepositoryFiles.create(project.id, 'feature.txt', 'feature', 'feature\n', 'Add the feature', { startBranch: 'main' });
    const review = await eventually(async () => (await jobs()).find((job) => job.name === 'review' && job.status === 'pending'));
    await services().pipelineEngine.transitionJob(review.id, 'success');
    iid = (await fx.root.MergeRequests.create(project.id, 'feature', 'main', 'Feature')).iid as number;
    await eventually(async () => (await fx.root.MergeRequests.show(project.id, iid)).detailed_merge_status === 'mergeable');
    reporter = await fx.member(project.id, 20);
  });
  afterAll(() => fx?.close());

  it('lists the environments the head commit reached, with GitLab’s fields and the actions a maintainer may take', async () => {
    const { status, body } = await statuses();
    expect(status).toBe(200);
    expect(body.map((e) => [e.name, e.status])).toEqual([
      ['review/feature', 'success'],
      ['staging', 'created'],
    ]);
    const [review, staging] = body as [EnvironmentStatus, EnvironmentStatus];
    expect(review).toMatchObject({
      url: `/${project.path_with_namespace}/-/environments/${review.id}`,
      stop_url: `/${project.path_with_namespace}/-/environments/${review.id}/stop`,
      external_url: 'https://feature.example.com',
      external_url_formatted: 'feature.example.com',
      environment_available: true,
      deployment_approved: false,
      changes: [],
      details: {},
    });
    expect(review.retry_url).toMatch(new RegExp(`^/${project.path_with_namespace}/-/jobs/\\d+/retry$`));
    expect(review.deployed_at).not.toBeNull();
    expect(review.deployed_at_formatted).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4} \d{1,2}:\d{2}[ap]m$/);
    // the manual deploy is playable; nothing is deployed yet
    expect(staging.deployed_at).toBeNull();
    expect(staging.details.playable_build?.play_path).toMatch(/\/-\/jobs\/\d+\/play$/);
    // the merge commit's list stays empty until the merge
    expect((await statuses(fx.server.root.token, '.json?environment_target=merge_commit')).body).toEqual([]);
  });

  it('shows a Reporter the list without actions, and a stranger or anonymous caller a 404', async () => {
    const { body } = await statuses(reporter.token);
    expect(body.map((e) => e.name)).toEqual(['review/feature', 'staging']);
    for (const e of body) {
      expect(e.stop_url).toBeUndefined();
      expect(e.retry_url).toBeUndefined();
      expect(e.details).toEqual({});
    }
    const stranger = await fx.server.createUser();
    expect((await statuses(stranger.token)).status).toBe(404);
    expect((await statuses(null)).status).toBe(404);
  });

  it('plays the manual deploy and stops the review app through the inline action paths; a Reporter is refused', async () => {
    const [review, staging] = (await statuses()).body as [EnvironmentStatus, EnvironmentStatus];
    const playPath = staging.details.playable_build!.play_path.slice(1);
    expect((await send('POST', playPath, reporter.token)).status).toBe(403);
    const played = await send('POST', playPath);
    expect(played.status).toBe(200);
    expect((await jobs()).find((job) => job.name === 'staging')!.status).toBe('pending');

    expect((await send('POST', review.stop_url!.slice(1), reporter.token)).status).toBe(403);
    const stopped = await send('POST', review.stop_url!.slice(1));
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toEqual({ redirect_url: review.url });
    // a stopped environment leaves the list
    expect((await statuses()).body.map((e) => e.name)).toEqual(['staging']);
  });
});
