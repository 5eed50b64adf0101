/**
 * The pure mappings beside the pipelines' and runners' declared inputs: which job statuses a
 * scope names, a pipeline's and a played job's variables, and the runner list filters (with the
 * deprecated `scope`), each with GitLab's 400 for what it refuses.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../platform/errors.js';
import { jobScope, jobVariables, pipelineVariables } from './pipelines.js';
import { listQuery, runnerInfo } from './runners.js';

describe('jobScope', () => {
  it.each([
    [undefined, undefined],
    [[], undefined],
    [['pending'], ['pending']],
    [['pending', 'running'], ['pending', 'running']],
  ])('%j gives %j', (scope, expected) => {
    expect(jobScope(scope)).toEqual(expected);
  });

  it('refuses an unknown status with GitLab’s message', () => {
    expect(() => jobScope(['pending', 'bogus'])).toThrow(new ValidationError('Scope contains invalid value(s)'));
  });
});

describe('pipelineVariables and jobVariables', () => {
  it.each([
    [undefined, []],
    [[{ key: 'A', value: '1' }], [{ key: 'A', value: '1', variable_type: 'env_var' }]],
    [[{ key: 'CERT', variable_type: 'file' as const }], [{ key: 'CERT', value: '', variable_type: 'file' }]],
  ])('pipeline %j gives %j', (variables, expected) => {
    expect(pipelineVariables(variables)).toEqual(expected);
  });

  it.each([[{}], [{ key: '' }], [{ key: 'MY-KEY' }], [{ key: 'K'.repeat(256) }]])('refuses the key of %j', (variable) => {
    expect(() => pipelineVariables([variable])).toThrow(ValidationError);
    expect(() => jobVariables([variable])).toThrow(ValidationError);
  });

  it('keeps a played job’s variables, undefined when none are sent', () => {
    expect(jobVariables(undefined)).toBeUndefined();
    expect(jobVariables([{ key: 'TARGET', value: 'production' }, { key: 'EMPTY' }])).toEqual([{ key: 'TARGET', value: 'production' }, { key: 'EMPTY', value: '' }]);
  });
});

describe('listQuery (runners)', () => {
  it.each([
    [{}, 'statuses', { types: undefined, statuses: undefined, paused: undefined, tags: undefined }],
    [{ scope: 'online' }, 'statuses', { types: undefined, statuses: ['online'], paused: undefined, tags: undefined }],
    [{ scope: 'specific' }, 'statuses_and_types', { types: ['project_type', 'group_type'], statuses: undefined, paused: undefined, tags: undefined }],
    [{ scope: 'specific', type: 'group_type' }, 'statuses_and_types', { types: ['group_type'], statuses: undefined, paused: undefined, tags: undefined }],
    [{ scope: 'bogus' }, 'none', { types: undefined, statuses: undefined, paused: undefined, tags: undefined }],
    [{ paused: true, tag_list: [' docker ', '', 'linux'] }, 'statuses', { types: undefined, statuses: undefined, paused: true, tags: ['docker', 'linux'] }],
  ] as const)('%j on a list taking %s', (params, scopes, expected) => {
    expect(listQuery({ ...params, tag_list: 'tag_list' in params ? [...params.tag_list] : undefined }, scopes)).toEqual(expected);
  });

  it.each([
    ['specific', 'statuses'],
    ['bogus', 'statuses_and_types'],
  ] as const)('refuses scope %s on a list taking %s with GitLab’s message', (scope, scopes) => {
    expect(() => listQuery({ scope }, scopes)).toThrow(new ValidationError('Scope contains invalid value'));
  });
});

describe('runnerInfo', () => {
  it('keeps the five fields as non-empty strings of at most 255 characters', () => {
    expect(runnerInfo(undefined)).toBeUndefined();
    expect(runnerInfo({ version: '17.0.0', revision: '', platform: 42, architecture: 'a'.repeat(300), executor: 'shell' })).toEqual({
      version: '17.0.0',
      revision: undefined,
      platform: undefined,
      architecture: 'a'.repeat(255),
      executor: 'shell',
    });
  });
});
