import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test-support/database.js';
import { eventually } from '../../test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../test-support/repository-fixtures.js';

/**
 * The merge widget's deployment `changes` (GitLab's EnvironmentStatus#changes): the pages the
 * merge request changes, by the project's `.gitlab/route-map.yml` at the deployed commit, linked
 * under the environment's external url; an invalid route map lists none.
 */
const CONFIG = `review:
  script: [deploy]
  environment:
    name: review/$CI_COMMIT_REF_SLUG
    url: https://$CI_COMMIT_REF_SLUG.example.com/
  rules:
    - if: $CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH != "main"
`;

const ROUTE_MAP = String.raw`# the site's pages
- source: 'data/team.yml'
  public: 'team/'
- source: /source\/(.+?\.html).*/
  public: '\1'
- source: /source/(.*)/
  public: '\1'
`;

interface EnvironmentStatus {
  name: string;
  changes: { path: string; external_url: string | null }[];
}

describe(`merge request deployments: changed pages by the route map (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  const services = () => fx.server.app.services;

  async function deployedMergeRequest(name: string, routeMap: string): Promise<{ project: { id: number; path_with_namespace: string }; iid: number }> {
    const project = await fx.createProject(name);
    await fx.root.Commits.create(project.id, 'main', 'Add CI and the site', [
      { action: 'create', filePath: '.gitlab-ci.yml', content: CONFIG },
      { action: 'create', filePath: '.gitlab/route-map.yml', content: routeMap },
      { action: 'create', filePath: 'source/index.html.haml', content: 'one\n' },
      { action: 'create', filePath: 'source/old.html.haml', content: 'one\n' },
      { action: 'create', filePath: 'data/team.yml', content: 'one\n' },
    ]);
    await fx.root.Commits.create(
      project.id,
      'feature',
      'Change the site',
      [
        { action: 'update', filePath: 'source/index.html.haml', content: 'two\n' },
        { action: 'update', filePath: 'data/team.yml', content: 'two\n' },
        { action: 'create', filePath: 'source/images/cover.png', content: 'png\n' },
        { action: 'create', filePath: 'NOTES.md', content: 'notes\n' },
        { action: 'delete', filePath: 'source/old.html.haml' },
      ],
      { startBranch: 'main' },
    );
    const jobs = async () => (await fx.root.Jobs.all(project.id)) as unknown as { id: number; name: string; status: string }[];
    const review = await eventually(async () => (await jobs()).find((job) => job.name === 'review' && job.status === 'pending'));
    await services().pipelineEngine.transitionJob(review.id, 'success');
    const iid = (await fx.root.MergeRequests.create(project.id, 'feature', 'main', 'Change the site')).iid as number;
    await eventually(async () => (await fx.root.MergeRequests.show(project.id, iid)).detailed_merge_status === 'mergeable');
    return { project, iid };
  }

  const statuses = async (project: { path_with_namespace: string }, iid: number) => {
    const response = await fetch(`${fx.server.url}/${project.path_with_namespace}/-/merge_requests/${iid}/ci_environments_status.json`, { headers: { 'private-token': fx.server.root.token } });
    expect(response.status).toBe(200);
    return (await response.json()) as EnvironmentStatus[];
  };

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
  });
  afterAll(() => fx?.close());

  it('lists the changed pages (not images, unmapped or deleted files) with links under the external url', async () => {
    const { project, iid } = await deployedMergeRequest('site', ROUTE_MAP);
    const [review] = await statuses(project, iid);
    expect(review!.name).toBe('review/feature');
    // in the diff's order (by path); cover.png maps to a non-page, NOTES.md to nothing, old.html.haml is deleted
    expect(review!.changes).toEqual([
      { path: 'team/', external_url: 'https://feature.example.com/team/' },
      { path: 'index.html', external_url: 'https://feature.example.com/index.html' },
    ]);
  });

  it('lists no changes when the route map is invalid, as GitLab', async () => {
    const { project, iid } = await deployedMergeRequest('broken-site', '- source: /[/\n  public: index.html\n');
    const [review] = await statuses(project, iid);
    expect(review!.changes).toEqual([]);
  });
});
