import { describe, expect, it } from 'vitest';

import { expandParallel, normalizeParallel } from './matrix.js';

describe('parallel and parallel:matrix', () => {
  it('names N instances name i/N', () => {
    const errors: string[] = [];
    expect(expandParallel('test', normalizeParallel(3, 'jobs:test', errors)).map((i) => i.name)).toEqual([
      'test 1/3',
      'test 2/3',
      'test 3/3',
    ]);
    expect(errors).toEqual([]);
  });

  it('expands a matrix as GitLab names it, values in key order', () => {
    const errors: string[] = [];
    const parallel = normalizeParallel(
      { matrix: [{ PROVIDER: 'aws', STACK: ['monitoring', 'app1'] }, { PROVIDER: ['gcp', 'vultr'], STACK: 'data' }] },
      'jobs:deploy',
      errors,
    );
    const instances = expandParallel('deploy', parallel);
    expect(instances.map((i) => i.name)).toEqual([
      'deploy: [aws, monitoring]',
      'deploy: [aws, app1]',
      'deploy: [gcp, data]',
      'deploy: [vultr, data]',
    ]);
    expect(instances[1]!.variables).toEqual({ PROVIDER: 'aws', STACK: 'app1' });
  });

  it.each([
    [0, 'jobs:test:parallel config must be greater than or equal to 1'],
    [201, 'jobs:test:parallel config must be less than or equal to 200'],
    [
      { matrix: [{ A: Array.from({ length: 15 }, (_, i) => i), B: Array.from({ length: 15 }, (_, i) => i) }] },
      'jobs:test:parallel:matrix config generates too many jobs (maximum is 200)',
    ],
  ])('refuses %j', (value, message) => {
    const errors: string[] = [];
    normalizeParallel(value, 'jobs:test', errors);
    expect(errors).toEqual([message]);
  });
});
