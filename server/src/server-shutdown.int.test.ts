/**
 * A server stops promptly whatever its clients hold open: a runner's long-polling job request
 * (held up to 50 s, as GitLab Workhorse holds it) is answered 204 and its keep-alive connection
 * closed, and a GraphQL subscription's WebSocket is closed. Before, a response that ended after
 * the close had begun (the long poll's 204 is written after the close starts) left its connection
 * open until the keep-alive timeout, and the close waited for it (over a minute).
 */
import type { Client } from 'graphql-ws';
import { afterAll, describe, expect, it } from 'vitest';
import { MERGE_STATUS_UPDATED_SUBSCRIPTION, mergeRequestGlobalId } from '@tributary/contracts';
import { subscribe, wsClient } from './api/graphql/testing.js';
import { testDatabaseKind } from './test-support/database.js';
import { eventually } from './test-support/eventually.js';
import { startRepositoryFixtures, type RepositoryFixtures } from './test-support/repository-fixtures.js';

describe(`stopping a server (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures | undefined;
  let client: Client | undefined;
  afterAll(async () => {
    await client?.dispose();
    await fx?.close();
  });

  // Far below the minute a lingering keep-alive connection held the close for.
  it('ends a held long-polling job request and an open subscription, and stops', { timeout: 30_000 }, async () => {
    fx = await startRepositoryFixtures({ config: { runnerLongPollSeconds: 50 } });
    const server = fx.server;
    const project = await fx.createProject('stopping');
    await fx.root.Branches.create(project.id, 'topic', 'main');
    await fx.root.RepositoryFiles.create(project.id, 'topic.txt', 'topic', 'topic\n', 'Topic');
    const mr = await fx.root.MergeRequests.create(project.id, 'topic', 'main', 'Topic');
    const runner = (await fx.root.Users.createCIRunner('project_type', { projectId: project.id, runUntagged: true })) as unknown as { id: number; token: string };

    // A subscriber, subscribed: it has had a message.
    client = wsClient(server.url, { token: server.root.token });
    let socketClosed = false;
    client.on('closed', () => (socketClosed = true));
    const probe = subscribe(client, MERGE_STATUS_UPDATED_SUBSCRIPTION, { issuableId: mergeRequestGlobalId(mr.id as number) });
    await eventually(async () => {
      if (probe.errors.length) throw new Error(`subscription failed: ${JSON.stringify(probe.errors)}`);
      await server.app.events.publish('merge_request.changed', { mergeRequestId: mr.id as number, projectId: project.id });
      return probe.messages.length > 0;
    });

    // A runner's job request with nothing to run: held. Its contact is recorded before it waits.
    const poll = fetch(`${server.url}/api/v4/jobs/request`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'RUNNER-TOKEN': runner.token },
      body: JSON.stringify({ token: runner.token, info: { name: 'gitlab-runner', version: '17.5.0' } }),
    });
    await eventually(async () => (await fx!.call<{ contacted_at: string | null }>('GET', `/runners/${runner.id}`)).body.contacted_at !== null);

    await server.close();
    expect((await poll).status).toBe(204);
    await eventually(async () => socketClosed);
  });
});
