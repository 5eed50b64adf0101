// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp } from '../../test-support/component';
import { ReviewBar } from './ReviewBar';

const DRAFTS = '/api/v4/projects/1/merge_requests/7/draft_notes';
const session = on('GET', '/-/session', () => json(200, { csrf_token: 'token', user: { id: 2, username: 'ada', name: 'Ada Lovelace', state: 'active', avatar_url: null, web_url: '/ada', is_admin: false } }));

async function submitWith(verdict: string | null) {
  let drafts = [{ id: 1, author_id: 2, merge_request_id: 70, note: 'Needs tests.', position: {}, discussion_id: null, resolve_discussion: false, line_code: null, commit_id: null }];
  const network = fakeNetwork([
    session,
    on('GET', DRAFTS, () => json(200, drafts)),
    on('POST', `${DRAFTS}/bulk_publish`, () => {
      drafts = [];
      return new Response(null, { status: 204 });
    }),
  ]);
  renderInApp(<ReviewBar target={{ projectId: 1, iid: 7 }} />);
  const bar = await screen.findByRole('region', { name: 'Review' });
  await userEvent.click(within(bar).getByRole('button', { name: 'Submit review' }));
  const dialog = await screen.findByRole('dialog', { name: 'Submit review' });
  expect(within(dialog).getAllByRole('radio').map((radio) => (radio as HTMLInputElement).value)).toEqual(['comment', 'approve', 'requested_changes']);
  if (verdict) await userEvent.click(within(dialog).getByRole('radio', { name: new RegExp(`^${verdict}`) }));
  await userEvent.click(within(dialog).getByRole('button', { name: 'Submit review' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  return network.sent.find((request) => request.path.endsWith('/bulk_publish'))?.body;
}

describe('Submit review: the verdict', () => {
  it.each([
    [null, {}],
    ['Approve', { approve: true }],
    ['Request changes', { reviewer_state: 'requested_changes' }],
  ])('%s sends %o', async (verdict, body) => {
    expect(await submitWith(verdict)).toEqual(body);
  });
});
