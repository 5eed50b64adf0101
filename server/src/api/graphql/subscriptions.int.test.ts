import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MERGE_STATUS_UPDATED_SUBSCRIPTION, mergeRequestGlobalId } from '@tributary/contracts';
import { testDatabaseKind } from '../../test-support/database.js';
import { startMergeRequestFixtures, type MergeRequestFixtures } from '../../test-support/merge-request-fixtures.js';
import { eventually } from '../../test-support/eventually.js';
import type { GitCli, TestUser } from '../../test-support/server.js';
import { RESOURCE_NOT_AVAILABLE } from './subscriptions.js';
import { signIn, subscribe, wsClient, type SubscriptionProbe } from './testing.js';

/**
 * The message must come from the push itself, not from a later poll or job retry. The issue's
 * "within a second" is a performance target, measured by `npm run bench` (graphql-widget: about
 * 10 ms from `git push` returning); on a CI machine shared with other test processes the bound
 * here is looser, so load alone cannot fail the test.
 */
const PUSH_TO_MESSAGE_MS = 5_000;
/** How long an unauthorized subscriber is watched for a message it must not get, after an authorized one got it. */
const QUIET_MS = 1_000;

/** mergeRequestMergeStatusUpdated over graphql-ws, fed by git pushes through merge_request.changed. */
describe(`GraphQL subscriptions (${testDatabaseKind()})`, () => {
  let fx: MergeRequestFixtures;
  let project: { id: number; path_with_namespace: string };
  let git: GitCli;
  let mr: { id: number; iid: number };
  const clients: Client[] = [];
  const sh = (args: string[]) => git.git(args, { cwd: 'work' });
  let counter = 0;
  /** A commit on topic, pushed with the stock git client; resolves when the push returns. */
  const pushToTopic = async () => {
    writeFileSync(join(git.dir, 'work', `file-${++counter}.txt`), `${counter}\n`);
    await sh(['add', '-A']);
    await sh(['commit', '-q', '-m', `Topic ${counter}`]);
    await sh(['push', '-q', git.repoUrl(project.path_with_namespace), 'topic']);
    return performance.now();
  };
  const client = (credentials: Parameters<typeof wsClient>[1]) => {
    const created = wsClient(fx.server.url, credentials);
    clients.push(created);
    return created;
  };
  const watch = (credentials: Parameters<typeof wsClient>[1]): SubscriptionProbe<any> =>
    subscribe(client(credentials), MERGE_STATUS_UPDATED_SUBSCRIPTION, { issuableId: mergeRequestGlobalId(mr.id) });
  beforeAll(async () => {
    fx = await startMergeRequestFixtures();
    project = await fx.createProject('gql-live');
    git = fx.rootGit();
    await git.git(['clone', '-q', git.repoUrl(project.path_with_namespace), 'work']);
    await sh(['checkout', '-q', '-b', 'topic']);
    await pushToTopic();
    const created = await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Live topic');
    mr = { id: created.id as number, iid: created.iid as number };
  });
  afterEach(async () => {
    for (const each of clients.splice(0)) await each.dispose();
  });
  afterAll(() => fx?.close());

  it('pushes an update to a graphql-ws client within a second of a git push to the source branch, then the new state', async () => {
    const probe = watch({ token: fx.server.root.token });
    await waitUntilSubscribed(probe);
    const pushed = await pushToTopic();
    const head = (await sh(['rev-parse', 'HEAD'])).stdout.trim();
    // The push's own transaction marks the request `checking` and announces it; the refresh job
    // announces again once the new version and the trial merge are stored.
    const first = await probe.next(pushed, 10_000);
    expect(first.at - pushed).toBeLessThan(PUSH_TO_MESSAGE_MS);
    expect(first.data.mergeRequestMergeStatusUpdated.id).toBe(mergeRequestGlobalId(mr.id));
    const settled = await eventually(async () =>
      probe.messages.find((message) => message.at >= pushed && message.data?.mergeRequestMergeStatusUpdated.commitCount === counter && message.data.mergeRequestMergeStatusUpdated.detailedMergeStatus === 'MERGEABLE'),
    );
    // no merge trains in this project: no car, no train count (GitLab's MergeTrainPosition fields)
    expect(settled.data).toEqual({ mergeRequestMergeStatusUpdated: { id: mergeRequestGlobalId(mr.id), detailedMergeStatus: 'MERGEABLE', commitCount: counter, mergeTrainCar: null, mergeTrainsCount: null } });
    // That message came after the new version was stored: the merge request shows the pushed head.
    expect((await fx.root.MergeRequests.show(project.id, mr.iid)).sha).toBe(head);
  });

  it('pushes an edit made through the API (a title marked as draft)', async () => {
    const probe = subscribe(client({ token: fx.server.root.token }), MERGE_STATUS_UPDATED_SUBSCRIPTION.replace('commitCount', 'commitCount draft'), {
      issuableId: mergeRequestGlobalId(mr.id),
    });
    await waitUntilSubscribed(probe);
    const edited = performance.now();
    await fx.root.MergeRequests.edit(project.id, mr.iid, { title: 'Draft: Live topic' });
    const message = await probe.next(edited, 10_000);
    expect(message.data.mergeRequestMergeStatusUpdated).toMatchObject({ draft: true, detailedMergeStatus: 'DRAFT_STATUS' });
    await fx.root.MergeRequests.edit(project.id, mr.iid, { title: 'Live topic' });
  });

  it('refuses a subscription to a merge request the caller may not read, exactly like one that does not exist', async () => {
    const stranger = await fx.server.createUser();
    const hidden = watch({ token: stranger.token });
    const absent = subscribe(client({ token: stranger.token }), MERGE_STATUS_UPDATED_SUBSCRIPTION, { issuableId: mergeRequestGlobalId(999_999) });
    await eventually(async () => hidden.errors.length > 0 && absent.errors.length > 0, 5_000);
    expect(hidden.errors).toEqual([[expect.objectContaining({ message: RESOURCE_NOT_AVAILABLE })]]);
    expect(absent.errors).toEqual(hidden.errors);

    const authorized = watch({ token: fx.server.root.token });
    await waitUntilSubscribed(authorized);
    const pushed = await pushToTopic();
    await authorized.next(pushed, 10_000);
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(hidden.messages).toEqual([]);
  });

  it('stops delivering to a member removed from the project after subscribing', async () => {
    const developer: TestUser = await fx.member(project.id, 30);
    const member = watch({ token: developer.token });
    const authorized = watch({ token: fx.server.root.token });
    await waitUntilSubscribed(member);
    await waitUntilSubscribed(authorized);
    const first = await pushToTopic();
    await member.next(first, 10_000);

    await fx.root.ProjectMembers.remove(project.id, developer.id);
    const second = await pushToTopic();
    await authorized.next(second, 10_000);
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
    expect(member.messages.filter((message) => message.at >= second)).toEqual([]);
  });

  it('takes the session cookie from our own pages only (a foreign Origin subscribes as anonymous)', async () => {
    const session = await signIn(fx.server.url, 'root', fx.server.root.password);
    const own = watch({ session });
    const foreign = watch({ session, origin: 'http://evil.example' });
    await waitUntilSubscribed(own);
    await eventually(async () => foreign.errors.length > 0, 5_000);
    expect(foreign.errors).toEqual([[expect.objectContaining({ message: RESOURCE_NOT_AVAILABLE })]]);
    const pushed = await pushToTopic();
    expect((await own.next(pushed, 10_000)).data.mergeRequestMergeStatusUpdated.id).toBe(mergeRequestGlobalId(mr.id));
  });

  it('refuses a connection whose connection_init token is not valid', async () => {
    const probe = watch({ token: 'glpat-not-a-token' });
    await eventually(async () => probe.errors.length > 0, 5_000);
    expect(probe.messages).toEqual([]);
  });

  /**
   * Subscribing is asynchronous: the server has the subscription once a change reaches it.
   * Publishes merge_request.changed directly (the event a push would publish) until one arrives.
   */
  async function waitUntilSubscribed(probe: SubscriptionProbe<unknown>): Promise<void> {
    const started = performance.now();
    await eventually(async () => {
      if (probe.errors.length) throw new Error(`subscription failed: ${JSON.stringify(probe.errors)}`);
      if (probe.messages.some((message) => message.at >= started)) return true;
      await fx.server.app.events.publish('merge_request.changed', { mergeRequestId: mr.id, projectId: project.id });
      await new Promise((resolve) => setTimeout(resolve, 100));
      return probe.messages.some((message) => message.at >= started);
    }, 10_000);
  }
});
