import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actorFor } from '../../../../auth/actor.js';
import { createMergingDomain, type MergeStep } from '../../../../domains/merge-requests/merging/index.js';
import { createProjectsRepository } from '../../../../domains/projects/projects.repository.js';
import { testDatabaseKind } from '../../../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../../../test-support/merge-request-fixtures.js';
import { gitbeakerClient } from '../../../../test-support/server.js';

/**
 * Merges racing each other: into the same branch at once, the same request twice at once,
 * and a deterministic interleaving (another merge lands between this merge's checks and its
 * compare-and-swap). GitLab's behaviour for a lost race is a 422 'Branch cannot be merged';
 * Tributary rebuilds a merge commit on the new tip instead (rechecking it), and answers 422
 * only when that is impossible (fast-forward and semi-linear projects need a rebase first).
 */
describe(`concurrent merges (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let counter = 0;

  const newProject = async (settings: Record<string, unknown> = {}) => {
    const project = await fx.createProject(`race-${++counter}`);
    if (Object.keys(settings).length > 0) await fx.call('PUT', `/projects/${project.id}`, { body: settings });
    return project;
  };
  const branch = async (projectId: number, name: string) => {
    const head = await fx.writeCommit(projectId, { parent: await fx.tip(projectId, 'main'), files: [{ path: `${name}.txt`, content: `${name}\n` }], message: name });
    await fx.setBranch(projectId, name, head);
    return head;
  };
  const open = (projectId: number, source: string) => fx.root.MergeRequests.create(projectId, source, 'main', source);
  const merge = (projectId: number, iid: number, body: Record<string, unknown> = {}) => fx.call('PUT', `/projects/${projectId}/merge_requests/${iid}/merge`, { body });
  const contains = async (projectId: number, commit: string) =>
    (await fx.rawGit(projectId, ['merge-base', '--is-ancestor', commit, 'refs/heads/main']).then(
      () => true,
      () => false,
    ));

  /** A second merging service on the same server whose step hook runs `onStep` (a real merge, a push…). */
  function mergingWith(onStep: (step: MergeStep) => Promise<void>) {
    const { app } = fx.server;
    const { services } = app;
    return createMergingDomain({
      db: app.db,
      logger: { warn: () => undefined, info: () => undefined },
      queue: services.queue,
      events: services.events,
      authorizer: app.authorizer,
      projects: createProjectsRepository(app.db),
      protectedBranches: services.protectedBranches,
      storage: services.storage,
      pushes: services.pushes,
      mergeRequestsService: services.mergeRequests,
      versions: services.mergeRequestVersions,
      mergeability: services.mergeability,
      externalUrl: fx.server.url,
      onStep,
    }).merging;
  }
  const rootActor = async () => actorFor((await fx.server.app.services.usersRepository.findByUsername('root'))!, 'session');

  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
  });
  afterAll(() => fx?.close());

  it('merges several requests into the same branch at the same moment, every one with all its commits', async () => {
    const project = await newProject();
    const heads: string[] = [];
    const iids: number[] = [];
    for (const name of ['r1', 'r2', 'r3', 'r4']) {
      heads.push(await branch(project.id, name));
      iids.push((await open(project.id, name)).iid);
    }
    const responses = await Promise.all(iids.map((iid, i) => merge(project.id, iid, { sha: heads[i] })));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    for (const head of heads) expect(await contains(project.id, head)).toBe(true);
    // one merge commit per request on main's first-parent line, none lost, none twice
    const merges = (await fx.rawGit(project.id, ['rev-list', '--first-parent', '--merges', 'refs/heads/main'])).toString().trim().split('\n');
    expect(merges).toHaveLength(4);
    expect(new Set(responses.map((response) => response.body.merge_commit_sha)).size).toBe(4);
  });

  it('merges the same request once when it is merged twice at the same moment', async () => {
    const project = await newProject();
    const head = await branch(project.id, 'once');
    const { iid, id } = await open(project.id, 'once');
    const before = await fx.tip(project.id, 'main');
    const responses = await Promise.all([merge(project.id, iid, { sha: head }), merge(project.id, iid, { sha: head })]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 405]);
    const merges = (await fx.rawGit(project.id, ['rev-list', '--merges', `${before}..refs/heads/main`])).toString().trim().split('\n');
    expect(merges).toHaveLength(1);
    const intents = await fx.server.app.db.query<{ state: string }>('SELECT state FROM merge_intents WHERE merge_request_id = $1', [id]);
    expect(intents.rows.filter((row) => row.state === 'done')).toHaveLength(1);
  });

  it('rebuilds a merge commit on the new tip when another merge lands between its checks and its compare-and-swap', async () => {
    const project = await newProject();
    const headA = await branch(project.id, 'first');
    const headB = await branch(project.id, 'second');
    const a = await open(project.id, 'first');
    const b = await open(project.id, 'second');
    const actor = await rootActor();
    let interfered = false;
    const racing = mergingWith(async (step) => {
      if (step !== 'merge:intent-recorded' || interfered) return;
      interfered = true;
      await fx.server.app.services.merging.merge(actor, project.id, b.iid, { sha: headB });
    });

    const merged = await racing.merge(actor, project.id, a.iid, { sha: headA });
    expect(merged.mergeRequest.state).toBe('merged');
    const mergeB = (await fx.root.MergeRequests.show(project.id, b.iid)).merge_commit_sha as string;
    const tip = await fx.tip(project.id, 'main');
    expect(tip).toBe(merged.mergeRequest.merge_commit_sha);
    expect((await fx.rawGit(project.id, ['rev-parse', `${tip}^1`, `${tip}^2`])).toString().trim().split('\n')).toEqual([mergeB, headA]);
    const intents = await fx.server.app.db.query<{ state: string; error: string | null }>('SELECT state, error FROM merge_intents WHERE merge_request_id = $1 ORDER BY id', [a.id]);
    expect(intents.rows).toEqual([
      { state: 'failed', error: 'target-moved' },
      { state: 'done', error: null },
    ]);
  });

  it('tells the loser of a fast-forward race to rebase (422), merging nothing of it', async () => {
    const project = await newProject({ merge_method: 'ff' });
    const headA = await branch(project.id, 'ff-a');
    const headB = await branch(project.id, 'ff-b');
    const a = await open(project.id, 'ff-a');
    const b = await open(project.id, 'ff-b');
    const actor = await rootActor();
    const racing = mergingWith(async (step) => {
      if (step === 'merge:intent-recorded' && (await fx.root.MergeRequests.show(project.id, b.iid)).state === 'opened') {
        await fx.server.app.services.merging.merge(actor, project.id, b.iid, { sha: headB });
      }
    });
    await expect(racing.merge(actor, project.id, a.iid, { sha: headA })).rejects.toMatchObject({ status: 422, body: 'Branch cannot be merged' });
    expect(await fx.tip(project.id, 'main')).toBe(headB);
    expect(await contains(project.id, headA)).toBe(false);
    expect(await fx.root.MergeRequests.show(project.id, a.iid)).toMatchObject({
      state: 'opened',
      merge_error: 'Only fast-forward merge is allowed for your project. Please update your source branch',
    });
  });

  it('answers 409 and merges nothing when the source is pushed to between the checks and the merge', async () => {
    const project = await newProject();
    const head = await branch(project.id, 'moving');
    const mr = await open(project.id, 'moving');
    const actor = await rootActor();
    const before = await fx.tip(project.id, 'main');
    const racing = mergingWith(async (step) => {
      if (step !== 'merge:commits-written') return;
      // a real push through the API, recorded as a new version before the intent is written
      await gitbeakerClient(fx.server.url, fx.server.root.token).Commits.create(project.id, 'moving', 'late push', [{ action: 'create', filePath: 'late.txt', content: 'late' }]);
      await fx.server.app.services.mergeRequestVersions.refresh({ mergeRequestId: mr.id, retargeted: false });
    });
    await expect(racing.merge(actor, project.id, mr.iid, { sha: head })).rejects.toMatchObject({ status: 409 });
    expect(await fx.tip(project.id, 'main')).toBe(before);
    expect((await fx.root.MergeRequests.show(project.id, mr.iid)).state).toBe('opened');
  });
});
