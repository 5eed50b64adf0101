import { describe, expect, it } from 'vitest';
import type { JobRow } from '../pipelines/pipeline.js';
import { jobPayload, jobTimeout, repositoryUrl, type JobPayloadInput } from './job-payload.js';
import type { JobContext } from './runner-jobs.repository.js';

const job = (options: JobRow['options'] = {}, extra: Partial<JobRow> = {}): JobRow =>
  ({
    id: 7, project_id: 3, pipeline_id: 5, stage_id: 1, type: 'build', name: 'build', stage: 'test', stage_idx: 0, status: 'running', when: 'on_success',
    start_in: null, allow_failure: false, allow_failure_exit_codes: null, scheduling_type: 'stage', options, yaml_variables: [], job_variables: [], tags: [],
    coverage_regex: null, coverage: null, interruptible: null, resource_group_key: null, environment: null, retried: false, user_id: null, runner_id: 1,
    token_hash: 'x', exit_code: null, failure_reason: null, scheduled_at: null, created_at: new Date('2026-01-01T00:00:00Z'), updated_at: new Date(),
    queued_at: new Date('2026-01-01T00:00:00Z'), started_at: new Date('2026-01-01T00:00:10Z'), finished_at: null, erased_at: null, needs: [], ...extra,
  }) as JobRow;

const context: JobContext = {
  pipeline_iid: 2, pipeline_source: 'push', ref: 'v1.0', tag: true, sha: 'a'.repeat(40), before_sha: '0'.repeat(40), pipeline_created_at: new Date('2026-01-01T00:00:00Z'),
  pipeline_user_id: null, project_name: 'Proj', project_path: 'proj', project_full_path: 'grp/proj', project_visibility: 'private', default_branch: 'main', namespace_id: 9, root_namespace_id: 9, merge_request_variables: [], from_fork: false,
};

const input = (overrides: Partial<JobPayloadInput> = {}): JobPayloadInput => ({
  job: job(), context, token: 'glcbt-abc', serverUrl: 'https://ci.example.com/', runnerMaximumTimeout: null, protectedRef: false, user: null,
  pipelineVariables: [], storedVariables: [], dependencies: [], now: new Date('2026-01-01T00:01:00Z'), ...overrides,
});

describe('jobTimeout (the job’s timeout capped by the runner’s maximum)', () => {
  it.each([
    [undefined, null, 3600],
    [600, null, 600],
    [7200, 3600, 3600],
    [undefined, 1800, 1800],
    [900, 3600, 900],
  ])('own %s, runner maximum %s → %s', (own, maximum, expected) => expect(jobTimeout(own, maximum)).toBe(expected));
});

describe('repositoryUrl', () => {
  it('embeds gitlab-ci-token and the job token', () => {
    expect(repositoryUrl('https://ci.example.com/', 'grp/proj', 'glcbt-abc')).toBe('https://gitlab-ci-token:glcbt-abc@ci.example.com/grp/proj.git');
  });
});

describe('jobPayload', () => {
  it('gives a tag its refspec and ref_type, and the time in queue', () => {
    const payload = jobPayload(input()) as Record<string, any>;
    expect(payload.git_info).toMatchObject({ ref_type: 'tag', refspecs: [`+${'a'.repeat(40)}:refs/pipelines/5`, '+refs/tags/v1.0:refs/tags/v1.0'] });
    expect(payload.job_info.time_in_queue_seconds).toBe(60);
  });

  it('has no after_script step without after_script, and an empty script step without a script', () => {
    expect((jobPayload(input()) as { steps: unknown[] }).steps).toEqual([{ name: 'script', script: [], timeout: 3600, when: 'on_success', allow_failure: false }]);
  });

  it('takes a string image, report artifacts and a list of caches', () => {
    const payload = jobPayload(input({ job: job({ image: 'alpine', artifacts: { reports: { junit: 'report.xml' } }, cache: [{ key: 'a', paths: ['x'] }, { paths: ['y'], policy: 'pull' }] }) })) as Record<string, any>;
    expect(payload.image).toEqual({ name: 'alpine', entrypoint: null, ports: [], pull_policy: null });
    expect(payload.artifacts).toEqual([expect.objectContaining({ name: 'junit', paths: ['report.xml'], artifact_type: 'junit', when: 'always' })]);
    expect(payload.cache.map((c: { key: string; policy: string }) => [c.key, c.policy])).toEqual([['a', 'pull-push'], ['default', 'pull']]);
  });

  it('masks the job token and flags masked and file variables, later sources after earlier ones', () => {
    const payload = jobPayload(
      input({
        storedVariables: [{ key: 'SECRET', value: 's3cret-value', masked: true, file: false, raw: false }, { key: 'KUBECONFIG', value: 'cfg', masked: false, file: true, raw: true }],
        job: job({}, { yaml_variables: [{ key: 'A', value: 'yaml' }], job_variables: [{ key: 'A', value: 'played' }] }),
        pipelineVariables: [{ key: 'B', value: 'pipe', variable_type: 'env_var' }],
      }),
    ) as { variables: { key: string; value: string; masked: boolean; file?: boolean; raw?: boolean }[] };
    const keys = payload.variables.map((v) => v.key);
    expect(payload.variables.find((v) => v.key === 'CI_JOB_TOKEN')).toMatchObject({ masked: true, value: 'glcbt-abc' });
    expect(payload.variables.find((v) => v.key === 'SECRET')).toMatchObject({ masked: true });
    expect(payload.variables.find((v) => v.key === 'KUBECONFIG')).toMatchObject({ file: true, raw: true });
    expect(keys.indexOf('SECRET')).toBeLessThan(keys.indexOf('B'));
    expect(keys.lastIndexOf('A')).toBeGreaterThan(keys.indexOf('A'));
    expect(payload.variables.find((v) => v.key === 'CI_COMMIT_TAG')).toMatchObject({ value: 'v1.0' });
    expect(payload.variables.find((v) => v.key === 'CI_API_V4_URL')).toMatchObject({ value: 'https://ci.example.com/api/v4' });
  });
});
