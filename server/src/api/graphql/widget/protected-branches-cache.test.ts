import { describe, expect, it } from 'vitest';
import type { ProtectedBranch } from '../../../domains/protected-branches/protected-branch.js';
import { cacheProtectedBranches } from './protected-branches-cache.js';

describe('cacheProtectedBranches', () => {
  it('asks the repository once per project within the TTL, again after it, and never keeps a failure', async () => {
    let clock = 0;
    const calls: number[] = [];
    let fail = false;
    const repository = {
      listForProject: async (projectId: number): Promise<ProtectedBranch[]> => {
        calls.push(projectId);
        if (fail) throw new Error('database down');
        return [{ id: projectId, name: 'main' } as ProtectedBranch];
      },
    };
    const cached = cacheProtectedBranches(repository, { ttlMs: 1_000, now: () => clock });
    expect(await cached.listForProject(1)).toEqual([{ id: 1, name: 'main' }]);
    await cached.listForProject(1);
    await cached.listForProject(2);
    expect(calls).toEqual([1, 2]);
    clock = 1_000;
    fail = true;
    await expect(cached.listForProject(1)).rejects.toThrow('database down');
    fail = false;
    expect(await cached.listForProject(1)).toEqual([{ id: 1, name: 'main' }]);
    expect(calls).toEqual([1, 2, 1, 1]);
  });
});
