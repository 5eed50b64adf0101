import { describe, expect, it } from 'vitest';
import { maskedValues, scopeMatches, variablesForJob, type JobVariableSources, type StoredVariable } from './variables-for-job.js';

const v = (key: string, value: string, extra: Partial<StoredVariable> = {}): StoredVariable => ({
  key,
  value,
  variable_type: 'env_var',
  protected: false,
  masked: false,
  raw: false,
  environment_scope: '*',
  ...extra,
});

const base: JobVariableSources = { project: [], groupAncestry: [], instance: [], refProtected: false, environment: null, fromFork: false };
const values = (sources: Partial<JobVariableSources>) => Object.fromEntries(variablesForJob({ ...base, ...sources }).map((variable) => [variable.key, variable.value]));

describe('scopeMatches', () => {
  it.each([
    ['*', null, true],
    ['*', 'production', true],
    ['production', 'production', true],
    ['production', null, false],
    ['production', 'staging', false],
    ['review/*', 'review/feature-1', true],
    ['review/*', 'review/a/b', true],
    ['review/*', 'production', false],
    ['*/prod', 'eu/prod', true],
    ['prod.*', 'prodXfoo', false],
    ['prod.*', 'prod.eu', true],
  ] as const)('%s against %s: %s', (scope, environment, expected) => {
    expect(scopeMatches(scope, environment)).toBe(expected);
  });
});

describe('variablesForJob', () => {
  it.each<[string, Partial<JobVariableSources>, Record<string, string>]>([
    ['instance < group < project', { instance: [v('A', 'instance'), v('B', 'instance'), v('C', 'instance')], groupAncestry: [[v('B', 'group'), v('C', 'group')]], project: [v('C', 'project')] }, { A: 'instance', B: 'group', C: 'project' }],
    ['the nearest group wins over its ancestors', { groupAncestry: [[v('A', 'top'), v('B', 'top')], [v('A', 'sub')]] }, { A: 'sub', B: 'top' }],
    ['pipeline variables win over everything', { project: [v('A', 'project')], pipeline: [{ key: 'A', value: 'pipeline' }] }, { A: 'pipeline' }],
    ['protected variables stay away from unprotected refs', { project: [v('SECRET', 'x', { protected: true }), v('OPEN', 'y')] }, { OPEN: 'y' }],
    ['protected variables reach protected refs', { refProtected: true, project: [v('SECRET', 'x', { protected: true })], groupAncestry: [[v('G', 'g', { protected: true })]], instance: [v('I', 'i', { protected: true })] }, { I: 'i', G: 'g', SECRET: 'x' }],
    ['a fork merge request gets no protected variable, even for a protected target', { refProtected: true, fromFork: true, project: [v('SECRET', 'x', { protected: true }), v('OPEN', 'y')], groupAncestry: [[v('G', 'g', { protected: true })]], instance: [v('I', 'i', { protected: true })] }, { OPEN: 'y' }],
    ['without an environment only * scoped variables', { project: [v('A', 'any'), v('A', 'prod', { environment_scope: 'production' })] }, { A: 'any' }],
    ['the exact environment beats a wildcard which beats *', { environment: 'review/x', project: [v('A', 'exact', { environment_scope: 'review/x' }), v('A', 'glob', { environment_scope: 'review/*' }), v('A', 'any')] }, { A: 'exact' }],
    ['a wildcard scope beats *', { environment: 'review/x', project: [v('A', 'glob', { environment_scope: 'review/*' }), v('A', 'any')] }, { A: 'glob' }],
    ['other environments are left out', { environment: 'staging', project: [v('A', 'prod', { environment_scope: 'production' })] }, {}],
    ['group scopes apply too', { environment: 'production', groupAncestry: [[v('A', 'group-prod', { environment_scope: 'production' }), v('A', 'group-any')]], project: [v('B', 'p')] }, { A: 'group-prod', B: 'p' }],
    ['a project * still beats a group exact scope', { environment: 'production', groupAncestry: [[v('A', 'group-prod', { environment_scope: 'production' })]], project: [v('A', 'project-any')] }, { A: 'project-any' }],
  ])('%s', (_name, sources, expected) => {
    expect(values(sources)).toEqual(expected);
  });

  it('gives each key once in the runner shape, with file, masked and raw', () => {
    const result = variablesForJob({ ...base, project: [v('CERT', 'pem', { variable_type: 'file', raw: true }), v('TOKEN', 'abcdefgh12', { masked: true })], instance: [v('CERT', 'old')] });
    expect(result).toEqual([
      { key: 'CERT', value: 'pem', public: false, masked: false, file: true, raw: true },
      { key: 'TOKEN', value: 'abcdefgh12', public: false, masked: true, file: false, raw: false },
    ]);
    expect(maskedValues(result)).toEqual(['abcdefgh12']);
  });
});
