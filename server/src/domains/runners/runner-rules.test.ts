import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../platform/errors.js';
import { canPick, executorType, isOrphaned, runnerManagerStatus, runnerStatus, tokenExpiresAt, validateRunnerSettings, type JobToPick } from './runner-rules.js';
import type { Runner } from './runner.js';

const now = new Date('2026-06-10T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('runnerStatus (GitLab deprecated_rest_status)', () => {
  it.each([
    ['created now, never contacted', { created_at: ago(0), contacted_at: null, paused: false }, 'never_contacted'],
    ['created 7 days ago, never contacted', { created_at: ago(7 * DAY), contacted_at: null, paused: false }, 'stale'],
    ['created 6 days ago, never contacted', { created_at: ago(6 * DAY), contacted_at: null, paused: false }, 'never_contacted'],
    ['contacted a minute ago', { created_at: ago(30 * DAY), contacted_at: ago(60_000), paused: false }, 'online'],
    ['contacted 1h59 ago', { created_at: ago(30 * DAY), contacted_at: ago(2 * HOUR - 60_000), paused: false }, 'online'],
    ['contacted exactly 2 hours ago', { created_at: ago(30 * DAY), contacted_at: ago(2 * HOUR), paused: false }, 'offline'],
    ['contacted 6 days ago', { created_at: ago(30 * DAY), contacted_at: ago(6 * DAY), paused: false }, 'offline'],
    ['contacted 7 days ago', { created_at: ago(30 * DAY), contacted_at: ago(7 * DAY), paused: false }, 'stale'],
    ['paused, contacted recently', { created_at: ago(30 * DAY), contacted_at: ago(60_000), paused: true }, 'paused'],
    ['paused, never contacted', { created_at: ago(0), contacted_at: null, paused: true }, 'never_contacted'],
    ['paused and stale', { created_at: ago(30 * DAY), contacted_at: ago(8 * DAY), paused: true }, 'stale'],
  ] as const)('%s → %s', (_name, runner, expected) => {
    expect(runnerStatus(runner, now)).toBe(expected);
  });
});

describe('canPick (may this runner run this job)', () => {
  const runner: Pick<Runner, 'paused' | 'runner_type' | 'group_id' | 'project_ids' | 'access_level' | 'run_untagged' | 'tag_list'> = {
    paused: false,
    runner_type: 'project_type',
    group_id: null,
    project_ids: [10, 11],
    access_level: 'not_protected',
    run_untagged: true,
    tag_list: ['docker', 'linux'],
  };
  const job: JobToPick = { projectId: 10, groupAncestry: [1, 2], tags: [], protectedRef: false };
  it.each([
    ['an untagged job of an assigned project', {}, {}, true],
    ['a job of the second assigned project', {}, { projectId: 11 }, true],
    ['a job of another project', {}, { projectId: 12 }, false],
    ['a paused runner', { paused: true }, {}, false],
    ['an instance runner, any project', { runner_type: 'instance_type', project_ids: [] }, { projectId: 99 }, true],
    ['a group runner, project under its group', { runner_type: 'group_type', group_id: 2, project_ids: [] }, { projectId: 99 }, true],
    ['a group runner, project elsewhere', { runner_type: 'group_type', group_id: 3, project_ids: [] }, { projectId: 99 }, false],
    ['tags that are a subset of the runner tags', {}, { tags: ['docker'] }, true],
    ['all of the runner tags', {}, { tags: ['linux', 'docker'] }, true],
    ['a tag the runner lacks', {}, { tags: ['docker', 'gpu'] }, false],
    ['an untagged job, run_untagged off', { run_untagged: false }, {}, false],
    ['a tagged job, run_untagged off', { run_untagged: false }, { tags: ['linux'] }, true],
    ['ref_protected runner, unprotected ref', { access_level: 'ref_protected' }, {}, false],
    ['ref_protected runner, protected ref', { access_level: 'ref_protected' }, { protectedRef: true }, true],
    ['not_protected runner, protected ref', {}, { protectedRef: true }, true],
  ] as const)('%s → %s', (_name, runnerOverrides, jobOverrides, expected) => {
    expect(canPick({ ...runner, ...runnerOverrides } as typeof runner, { ...job, ...jobOverrides })).toBe(expected);
  });
});

describe('validateRunnerSettings (GitLab Ci::Runner validations)', () => {
  it('trims and de-duplicates tags', () => {
    expect(validateRunnerSettings({ tag_list: [' a', 'a', 'b ', ''] }).tag_list).toEqual(['a', 'b']);
  });
  it.each([
    ['no tags and no untagged jobs', { run_untagged: false }, undefined],
    ['removing the last tag of a tags-only runner', { tag_list: [] }, { tag_list: ['x'], run_untagged: false }],
    ['a timeout under ten minutes', { maximum_timeout: 599 }, undefined],
    ['an unknown access level', { access_level: 'protected' }, undefined],
    ['51 tags', { tag_list: Array.from({ length: 51 }, (_, i) => `t${i}`) }, undefined],
    ['a description over 1024 characters', { description: 'x'.repeat(1025) }, undefined],
  ] as const)('refuses %s', (_name, input, current) => {
    expect(() => validateRunnerSettings(input as never, current as never)).toThrow(ValidationError);
  });
  it('accepts tags-only runners and ten-minute timeouts', () => {
    expect(validateRunnerSettings({ run_untagged: false, tag_list: ['x'], maximum_timeout: 600, access_level: 'ref_protected' })).toEqual({
      run_untagged: false,
      tag_list: ['x'],
      maximum_timeout: 600,
      access_level: 'ref_protected',
    });
  });
});

describe('isOrphaned', () => {
  it.each([
    ['project_type', [], true],
    ['project_type', [3], false],
    ['group_type', [], false],
    ['instance_type', [], false],
  ] as const)('%s with projects %j → %s', (runner_type, project_ids, expected) => {
    expect(isOrphaned({ runner_type, project_ids: [...project_ids] })).toBe(expected);
  });
});

describe('runnerManagerStatus (GitLab Ci::HasRunnerStatus)', () => {
  it.each([
    ['created now, never contacted', { created_at: ago(0), contacted_at: null }, 'never_contacted'],
    ['created 7 days ago, never contacted', { created_at: ago(7 * DAY), contacted_at: null }, 'stale'],
    ['contacted a minute ago', { created_at: ago(30 * DAY), contacted_at: ago(60_000) }, 'online'],
    ['contacted 3 hours ago', { created_at: ago(30 * DAY), contacted_at: ago(3 * HOUR) }, 'offline'],
    ['contacted 8 days ago', { created_at: ago(30 * DAY), contacted_at: ago(8 * DAY) }, 'stale'],
  ] as const)('%s → %s', (_name, manager, expected) => {
    expect(runnerManagerStatus(manager, now)).toBe(expected);
  });
});

describe('executorType (GitLab EXECUTOR_NAME_TO_TYPES)', () => {
  it.each([
    ['shell', 'shell'],
    ['docker+machine', 'docker_machine'],
    ['docker-autoscaler', 'docker_autoscaler'],
    ['kubernetes', 'kubernetes'],
    ['toString', 'unknown'],
    ['something-new', 'unknown'],
  ])('%s → %s', (name, type) => expect(executorType(name)).toBe(type));
});

describe('tokenExpiresAt (GitLab compute_token_expiration)', () => {
  const settings = { runner_token_expiration_interval: 3600, group_runner_token_expiration_interval: 7200, project_runner_token_expiration_interval: null };
  it.each([
    ['instance_type', new Date(now.getTime() + HOUR)],
    ['group_type', new Date(now.getTime() + 2 * HOUR)],
    ['project_type', null],
  ] as const)('%s → %s', (type, expected) => expect(tokenExpiresAt(type, settings, now)).toEqual(expected));
});
