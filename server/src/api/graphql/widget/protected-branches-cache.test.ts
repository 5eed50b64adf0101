import { describe, expect, it } from 'vitest';
import type { ProtectedBranch } from '../../../domains/protected-branches/protected-branch.js';
import { cacheProtectedBranches } from './protected-branches-cache.js';

describe('cacheProtectedBranches', () => {
  it('asks the repository once per project until a rule is written, and never keeps a failure', async () => {
    let generation = 0;
    const calls: number[] = [];
    let fail = false;
    const repository = {
      listForProject: async (projectId: number): Promise<ProtectedBranch[]> => {
        calls.push(projectId);
        if (fail) throw new Error('database down');
        return [{ id: projectId, name: 'main' } as ProtectedBranch];
      },
    };
    const cached = cacheProtectedBranches(repository, { generation: () => generation });
    expect(await cached.listForProject(1)).toEqual([{ id: 1, name: 'main' }]);
    await cached.listForProject(1);
    await cached.listForProject(2);
    expect(calls).toEqual([1, 2]);
    generation += 1;
    fail = true;
    await expect(cached.listForProject(1)).rejects.toThrow('database down');
    fail = false;
    expect(await cached.listForProject(1)).toEqual([{ id: 1, name: 'main' }]);
    expect(calls).toEqual([1, 2, 1, 1]);
  });
});
