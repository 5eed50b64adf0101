import { describe, expect, it } from 'vitest';
import { AccessLevel } from '@tributary/contracts';
import { runnerAbilities, type RunnerSubjectContext } from './runner-permissions.js';

const base: RunnerSubjectContext = { userId: 7, isAdmin: false, runnerType: 'project_type', groupLevel: 0, projectLevels: [] };
const { Developer, Maintainer, Owner } = AccessLevel;

describe('runnerAbilities (GitLab RunnerPolicy)', () => {
  it.each([
    ['anonymous, instance runner', { userId: null, runnerType: 'instance_type' }, []],
    ['administrator, project runner', { isAdmin: true }, ['read_runner', 'update_runner', 'delete_runner', 'assign_runner']],
    ['signed-in user, instance runner', { runnerType: 'instance_type' }, ['read_runner']],
    ['group Developer, group runner', { runnerType: 'group_type', groupLevel: Developer }, []],
    ['group Maintainer, group runner', { runnerType: 'group_type', groupLevel: Maintainer }, ['read_runner']],
    ['group Owner, group runner', { runnerType: 'group_type', groupLevel: Owner }, ['read_runner', 'update_runner', 'delete_runner']],
    ['stranger, project runner', { projectLevels: [0] }, []],
    ['Developer of the owner project', { projectLevels: [Developer] }, []],
    ['Maintainer of the owner project', { projectLevels: [Maintainer, 0] }, ['read_runner', 'update_runner', 'delete_runner', 'assign_runner']],
    ['Maintainer of a second project only', { projectLevels: [0, Maintainer] }, ['read_runner', 'update_runner']],
  ] as const)('%s', (_name, overrides, expected) => {
    expect([...runnerAbilities({ ...base, ...overrides } as RunnerSubjectContext)].sort()).toEqual([...expected].sort());
  });
});
