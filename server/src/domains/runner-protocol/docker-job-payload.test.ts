/**
 * What Tributary sends a runner for a job that runs in Docker (`image`, `services`, variables),
 * checked against gitlab-runner's own types: the Go structs it decodes POST /jobs/request's body
 * into (common/network.go: JobResponse, Image, Port, JobVariable). Go's encoding/json refuses
 * the whole body when one field has the wrong JSON type (an object where a list is expected, a
 * number where a struct is), so every field here must have the type gitlab-runner declares; null
 * and unknown keys are accepted, as Go accepts them. No Docker daemon is involved: this is the
 * contract, and the Docker executor's command lines have their own test (runner/archive.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { JobRow } from '../pipelines/pipeline.js';
import { normalizeImage, normalizeServices } from '../pipelines/config/job-attributes.js';
import { jobPayload, type JobPayloadInput } from './job-payload.js';
import type { JobContext } from './runner-jobs.repository.js';

/** A Go type as encoding/json decodes it. */
type GoType = 'string' | 'int' | 'bool' | { list: GoType } | { struct: Record<string, GoType> };

// gitlab-runner's common/network.go, the fields a Docker job uses
const PORT: GoType = { struct: { number: 'int', protocol: 'string', name: 'string' } };
const JOB_VARIABLE: GoType = { struct: { key: 'string', value: 'string', public: 'bool', internal: 'bool', file: 'bool', masked: 'bool', raw: 'bool' } };
const IMAGE: GoType = {
  struct: {
    name: 'string',
    alias: 'string',
    command: { list: 'string' },
    entrypoint: { list: 'string' },
    ports: { list: PORT },
    variables: { list: JOB_VARIABLE },
    pull_policy: { list: 'string' },
  },
};
const JOB_RESPONSE: GoType = {
  struct: {
    id: 'int',
    token: 'string',
    allow_git_fetch: 'bool',
    variables: { list: JOB_VARIABLE },
    steps: { list: { struct: { name: 'string', script: { list: 'string' }, timeout: 'int', when: 'string', allow_failure: 'bool' } } },
    image: IMAGE,
    services: { list: IMAGE },
  },
};

/** The paths where `value` would make Go's json.Unmarshal into `type` fail (empty: it decodes). */
function decodeErrors(value: unknown, type: GoType, path = '$'): string[] {
  if (value === null || value === undefined) return [];
  if (type === 'string') return typeof value === 'string' ? [] : [`${path}: ${JSON.stringify(value)} is not a string`];
  if (type === 'int') return Number.isInteger(value) ? [] : [`${path}: ${JSON.stringify(value)} is not an integer`];
  if (type === 'bool') return typeof value === 'boolean' ? [] : [`${path}: ${JSON.stringify(value)} is not a boolean`];
  if ('list' in type) return Array.isArray(value) ? value.flatMap((item, index) => decodeErrors(item, type.list, `${path}[${index}]`)) : [`${path}: ${JSON.stringify(value)} is not a list`];
  if (typeof value !== 'object' || Array.isArray(value)) return [`${path}: ${JSON.stringify(value)} is not an object`];
  return Object.entries(type.struct).flatMap(([key, field]) => decodeErrors((value as Record<string, unknown>)[key], field, `${path}.${key}`));
}

const CONTEXT: JobContext = {
  pipeline_iid: 2, pipeline_source: 'push', ref: 'main', tag: false, sha: 'a'.repeat(40), before_sha: '0'.repeat(40), pipeline_created_at: new Date('2026-01-01T00:00:00Z'),
  pipeline_user_id: null, project_name: 'Proj', project_path: 'proj', project_full_path: 'grp/proj', project_visibility: 'private', default_branch: 'main', namespace_id: 9, root_namespace_id: 9, merge_request_variables: [], from_fork: false,
};

/** A job compiled from `image:` and `services:` as the YAML states them (through the config's own normalisation). */
function dockerJob(image: unknown, services: unknown): JobPayloadInput {
  const errors: string[] = [];
  const options = { image: normalizeImage(image, 'job', errors), services: normalizeServices(services, 'job', errors), script: ['psql -h db -c "select 1"'] };
  expect(errors).toEqual([]);
  const job = {
    id: 7, project_id: 3, pipeline_id: 5, stage_id: 1, type: 'build', name: 'test', stage: 'test', stage_idx: 0, status: 'running', when: 'on_success',
    start_in: null, allow_failure: false, allow_failure_exit_codes: null, scheduling_type: 'stage', options, yaml_variables: [{ key: 'POSTGRES_PASSWORD', value: 'pw', public: true }], job_variables: [], tags: ['docker'],
    coverage_regex: null, coverage: null, interruptible: null, resource_group_key: null, environment: null, retried: false, user_id: null, runner_id: 1,
    token_hash: 'x', exit_code: null, failure_reason: null, scheduled_at: null, created_at: new Date('2026-01-01T00:00:00Z'), updated_at: new Date(),
    queued_at: new Date('2026-01-01T00:00:00Z'), started_at: new Date('2026-01-01T00:00:10Z'), finished_at: null, erased_at: null, needs: [],
  } as unknown as JobRow;
  return {
    job, context: CONTEXT, token: 'glcbt-abc', serverUrl: 'https://ci.example.com/', runnerMaximumTimeout: null, protectedRef: false, user: null,
    pipelineVariables: [], storedVariables: [], dependencies: [], now: new Date('2026-01-01T00:01:00Z'),
  };
}

const send = (input: JobPayloadInput) => JSON.parse(JSON.stringify(jobPayload(input))) as Record<string, any>;

describe('the job payload of a Docker job, as gitlab-runner decodes it', () => {
  it('sends a string image and string services as GitLab does', () => {
    const payload = send(dockerJob('ruby:3.3', ['postgres:16', 'redis']));
    expect(decodeErrors(payload, JOB_RESPONSE)).toEqual([]);
    expect(payload.image).toEqual({ name: 'ruby:3.3', entrypoint: null, ports: [], pull_policy: null });
    expect(payload.services).toEqual([
      { name: 'postgres:16', entrypoint: null, ports: [], pull_policy: null, alias: null, command: null, variables: null },
      { name: 'redis', entrypoint: null, ports: [], pull_policy: null, alias: null, command: null, variables: null },
    ]);
  });

  it('sends every form of the image and service keywords with gitlab-runner’s types', () => {
    const payload = send(
      dockerJob({ name: 'node:22', entrypoint: [''], pull_policy: 'if-not-present', ports: [8080, { number: 8443, protocol: 'https', name: 'web' }] }, [
        { name: 'postgres:16', alias: 'db,postgres', command: ['postgres', '-c', 'fsync=off'], entrypoint: ['docker-entrypoint.sh'], variables: { POSTGRES_DB: 'app', POSTGRES_PORT: 5432 } },
        { name: 'mysql:8', pull_policy: ['always', 'if-not-present'] },
      ]),
    );
    expect(decodeErrors(payload, JOB_RESPONSE)).toEqual([]);
    expect(payload.image).toEqual({
      name: 'node:22',
      entrypoint: [''],
      pull_policy: ['if-not-present'],
      // GitLab's Build::Port: a bare number is an http port named default_port
      ports: [
        { number: 8080, protocol: 'http', name: 'default_port' },
        { number: 8443, protocol: 'https', name: 'web' },
      ],
    });
    expect(payload.services[0]).toEqual({
      name: 'postgres:16',
      alias: 'db,postgres',
      command: ['postgres', '-c', 'fsync=off'],
      entrypoint: ['docker-entrypoint.sh'],
      ports: [],
      pull_policy: null,
      // GitLab's build_variables: the YAML's hash as a list of string values
      variables: [
        { key: 'POSTGRES_DB', value: 'app' },
        { key: 'POSTGRES_PORT', value: '5432' },
      ],
    });
    expect(payload.services[1]).toMatchObject({ name: 'mysql:8', pull_policy: ['always', 'if-not-present'] });
  });

  it('sends the job’s variables as gitlab-runner’s JobVariables', () => {
    const payload = send(dockerJob('alpine', undefined));
    expect(decodeErrors(payload, JOB_RESPONSE)).toEqual([]);
    expect(payload.services).toEqual([]);
    expect(payload.variables).toContainEqual(expect.objectContaining({ key: 'POSTGRES_PASSWORD', value: 'pw', public: true }));
    expect(payload.variables).toContainEqual(expect.objectContaining({ key: 'CI_JOB_TOKEN', value: 'glcbt-abc', masked: true }));
  });

  it('the checker itself refuses what Go would refuse', () => {
    expect(decodeErrors({ services: [{ variables: { A: '1' } }] }, JOB_RESPONSE)).toEqual(['$.services[0].variables: {"A":"1"} is not a list']);
    expect(decodeErrors({ image: { ports: [8080] } }, JOB_RESPONSE)).toEqual(['$.image.ports[0]: 8080 is not an object']);
    expect(decodeErrors({ image: { entrypoint: 'sh' } }, JOB_RESPONSE)).toEqual(['$.image.entrypoint: "sh" is not a list']);
  });
});
