import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ForbiddenError, ValidationError } from '../../platform/errors.js';
import { actorFor } from '../../auth/actor.js';
import { buildScenario, rawGit, type Scenario } from '../../git/scenarios/scenarios.js';
import type { Project } from '../projects/project.js';
import type { ProtectedBranch } from '../protected-branches/protected-branch.js';
import type { PusherFacts } from '../protected-branches/push-rules.js';
import type { User } from '../users/user.js';
import { createCommitWriter, WRITE_MESSAGES } from './commit-writer.js';

/** The shared write path, on a real repository (linear-history scenario) with fake database-side dependencies. */
describe('commit writer', () => {
  let scenario: Scenario;
  const user = { id: 5, name: 'Dev Eloper', email: 'dev@example.com', is_admin: false } as User;
  const actor = actorFor(user, 'token', ['api']);
  const mainOnly: ProtectedBranch = {
    id: 1,
    project_id: 1,
    name: 'main',
    allow_force_push: false,
    code_owner_approval_required: false,
    rules: [{ id: 1, kind: 'push', access_level: 40, user_id: null, group_id: null }],
  };

  function writer(level: number, protections: ProtectedBranch[] = [mainOnly]) {
    const pusher: PusherFacts = { userId: user.id, isAdmin: false, accessLevel: level };
    const postReceive = vi.fn(async () => [1]);
    const instance = createCommitWriter({
      access: { pusher: async () => pusher },
      protectedBranches: { listForProject: async () => protections },
      pushes: { postReceive },
    });
    return { instance, postReceive };
  }

  const handle = () => ({ project: { id: 1, default_branch: 'main' } as Project, repoPath: scenario.repo });
  const tip = async (branch: string) => (await rawGit(scenario.repo, 'rev-parse', `refs/heads/${branch}`)).trim();
  const create = (path: string) => [{ action: 'create' as const, file_path: path, content: Buffer.from('x\n') }];

  beforeAll(async () => {
    scenario = await buildScenario('linear-history');
  });

  afterAll(async () => {
    await scenario?.cleanup();
  });

  it('commits on top of a branch with the caller as committer and records a push', async () => {
    const { instance, postReceive } = writer(30);
    const before = await tip('feature/x');
    const sha = await instance.write(actor, handle(), { branch: 'feature/x', message: 'Add', actions: create('new.txt'), authorName: 'Ada', authorEmail: 'ada@example.com' });
    expect(await tip('feature/x')).toBe(sha);
    expect((await rawGit(scenario.repo, 'log', '-1', '--format=%P|%an|%cn <%ce>', sha)).trim()).toBe(`${before}|Ada|Dev Eloper <dev@example.com>`);
    expect(postReceive).toHaveBeenCalledWith(5, 1, [{ ref: 'refs/heads/feature/x', oldSha: before, newSha: sha }]);
  });

  it('refuses a protected branch with the endpoint wording and writes nothing', async () => {
    const { instance, postReceive } = writer(30);
    const before = await tip('main');
    await expect(instance.write(actor, handle(), { branch: 'main', message: 'x', actions: create('y.txt') })).rejects.toThrow(new ForbiddenError(WRITE_MESSAGES.notAllowed));
    await expect(instance.write(actor, handle(), { branch: 'main', message: 'x', actions: create('y.txt'), refusal: 'custom' })).rejects.toThrow('custom');
    expect(await tip('main')).toBe(before);
    expect(postReceive).not.toHaveBeenCalled();
  });

  it('creates a branch from start_branch, and needs force to overwrite one', async () => {
    const { instance } = writer(40);
    const sha = await instance.write(actor, handle(), { branch: 'topic', startBranch: 'main', message: 'Topic', actions: create('t.txt') });
    expect((await rawGit(scenario.repo, 'rev-parse', `${sha}^`)).trim()).toBe(await tip('main'));
    const again = instance.write(actor, handle(), { branch: 'topic', startBranch: 'feature/x', message: 'Again', actions: create('u.txt') });
    await expect(again).rejects.toThrow("A branch called 'topic' already exists. Switch to that branch in order to make changes");
    const forced = await instance.write(actor, handle(), { branch: 'topic', startBranch: 'feature/x', force: true, message: 'Forced', actions: create('u.txt') });
    expect(await tip('topic')).toBe(forced);
  });

  it('refuses a forced overwrite of a protected branch without allow_force_push', async () => {
    const { instance } = writer(40);
    const before = await tip('main');
    const attempt = instance.write(actor, handle(), { branch: 'main', startBranch: 'feature/x', force: true, message: 'x', actions: create('z.txt') });
    await expect(attempt).rejects.toThrow('You are not allowed to force push code to a protected branch on this project.');
    expect(await tip('main')).toBe(before);
  });

  it('checks last_commit_id expectations against the start commit', async () => {
    const { instance } = writer(40);
    const before = await tip('main');
    const attempt = instance.write(actor, handle(), {
      branch: 'main',
      message: 'x',
      actions: [{ action: 'update', file_path: 'README.md', content: Buffer.from('x') }],
      expectations: [{ path: 'README.md', lastCommitId: '0'.repeat(40), message: 'changed' }],
    });
    await expect(attempt).rejects.toThrow(new ValidationError('changed'));
    expect(await tip('main')).toBe(before);
  });

  it('refuses start_sha together with start_branch, malformed and unknown SHAs', async () => {
    const { instance } = writer(40);
    const base = { branch: 'other', message: 'x', actions: create('o.txt') };
    await expect(instance.write(actor, handle(), { ...base, startBranch: 'main', startSha: 'a'.repeat(40) })).rejects.toThrow(WRITE_MESSAGES.bothStarts);
    await expect(instance.write(actor, handle(), { ...base, startSha: 'main' })).rejects.toThrow("Invalid start_sha 'main'");
    await expect(instance.write(actor, handle(), { ...base, startSha: 'a'.repeat(40) })).rejects.toThrow(`Cannot find start_sha '${'a'.repeat(40)}'`);
  });
});
