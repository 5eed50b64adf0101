import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test-support/database.js';
import { startRepositoryFixtures, type RepositoryFixtures } from '../../../test-support/repository-fixtures.js';
import type { TestUser } from '../../../test-support/server.js';

/**
 * Abuse reports: any signed-in user reports another (category required, one open report per
 * reporter, user and category), only administrators list, read, close, reopen and delete them.
 */
describe(`abuse reports (${testDatabaseKind()})`, () => {
  let fx: RepositoryFixtures;
  let reporter: TestUser;
  let spammer: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    fx = await startRepositoryFixtures();
    reporter = await fx.server.createUser();
    spammer = await fx.server.createUser();
    admin = await fx.server.createUser({ admin: true });
  }, 120_000);
  afterAll(() => fx?.close());

  const report = (body: Record<string, unknown>, token: string | null = reporter.token) => fx.call('POST', '/abuse_reports', { token, body });

  it('stores a report and shows it to administrators only', async () => {
    const created = await report({ user_id: spammer.id, category: 'spam', comment: 'Buy followers now', reported_from_url: `${fx.server.url}/g/p/-/merge_requests/1#note_4` });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ category: 'spam', status: 'open', message: 'Buy followers now', user: { id: spammer.id }, reporter: { id: reporter.id }, resolved_at: null });

    const list = await fx.call('GET', '/admin/abuse_reports', { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body.map((r: { id: number }) => r.id)).toContain(created.body.id);
    expect(list.headers.get('x-total')).toBe('1');

    for (const who of [reporter, spammer]) {
      expect((await fx.call('GET', '/admin/abuse_reports', { token: who.token })).status).toBe(403);
      expect((await fx.call('GET', `/admin/abuse_reports/${created.body.id}`, { token: who.token })).status).toBe(403);
      expect((await fx.call('PUT', `/admin/abuse_reports/${created.body.id}`, { token: who.token, body: { status: 'closed' } })).status).toBe(403);
      expect((await fx.call('DELETE', `/admin/abuse_reports/${created.body.id}`, { token: who.token })).status).toBe(403);
    }
    expect((await fx.call('GET', '/admin/abuse_reports', { token: null })).status).toBe(401);
  });

  it('requires a known category and a comment; anonymous callers cannot report', async () => {
    expect((await report({ user_id: spammer.id, comment: 'x' })).body.message).toBe('400 (Bad request) "category" not given');
    expect((await report({ user_id: spammer.id, category: 'rude', comment: 'x' })).status).toBe(400);
    expect((await report({ user_id: spammer.id, category: 'malware' })).body.message).toEqual({ message: ["can't be blank"] });
    expect((await report({ user_id: 999999, category: 'malware', comment: 'x' })).status).toBe(404);
    expect((await report({ user_id: reporter.id, category: 'malware', comment: 'me' })).status).toBe(400);
    expect((await report({ user_id: spammer.id, category: 'malware', comment: 'x' }, null)).status).toBe(401);
  });

  it('accepts the drawer’s form fields (abuse_report[category], abuse_report[message])', async () => {
    const created = await report({ user_id: spammer.id, abuse_report: { category: 'phishing', message: 'fake login page', reported_from_url: 'https://x/y' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ category: 'phishing', message: 'fake login page', reported_from_url: 'https://x/y' });
  });

  it('one open report per reporter, user and category; closing allows another', async () => {
    const first = await report({ user_id: spammer.id, category: 'offensive', comment: 'insults' });
    expect(first.status).toBe(201);
    const again = await report({ user_id: spammer.id, category: 'offensive', comment: 'more insults' });
    expect(again.status).toBe(400);
    expect(again.body.message).toEqual({ user_id: ['You have already reported this user'] });

    const closed = await fx.call('PUT', `/admin/abuse_reports/${first.body.id}`, { token: admin.token, body: { status: 'closed' } });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', resolved_by: { id: admin.id } });
    expect(closed.body.resolved_at).not.toBeNull();
    expect((await report({ user_id: spammer.id, category: 'offensive', comment: 'still insulting' })).status).toBe(201);
    // reopening the first would make two open reports of the same kind
    expect((await fx.call('PUT', `/admin/abuse_reports/${first.body.id}`, { token: admin.token, body: { status: 'open' } })).status).toBe(400);

    const open = await fx.call('GET', '/admin/abuse_reports?status=open&category=offensive', { token: admin.token });
    expect(open.body).toHaveLength(1);
    const closedList = await fx.call('GET', '/admin/abuse_reports?status=closed', { token: admin.token });
    expect(closedList.body.map((r: { id: number }) => r.id)).toEqual([first.body.id]);

    expect((await fx.call('DELETE', `/admin/abuse_reports/${first.body.id}`, { token: admin.token })).status).toBe(204);
    expect((await fx.call('GET', `/admin/abuse_reports/${first.body.id}`, { token: admin.token })).status).toBe(404);
    expect((await fx.call('GET', '/admin/abuse_reports/abc', { token: admin.token })).status).toBe(400);
  });
});
