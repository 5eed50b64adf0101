// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp, type Route } from '../../test-support/component';
import { ReviewBar } from './ReviewBar';

const DRAFTS = '/api/v4/projects/1/merge_requests/7/draft_notes';
const APPROVALS = '/api/v4/projects/1/merge_requests/7/approvals';
const session = on('GET', '/-/session', () => json(200, { csrf_token: 'token', user: { id: 2, username: 'ada', name: 'Ada Lovelace', state: 'active', avatar_url: null, web_url: '/ada', is_admin: false } }));
const approvals = (ability: { user_can_approve: boolean; require_password_to_approve: boolean }) => on('GET', APPROVALS, () => json(200, ability));

/** The bar with one draft; bulk_publish answers `publish` (204 by default). */
function renderBar(routes: Route[], publish: () => Response = () => new Response(null, { status: 204 })) {
  let drafts = [{ id: 1, author_id: 2, merge_request_id: 70, note: 'Needs tests.', position: {}, discussion_id: null, resolve_discussion: false, line_code: null, commit_id: null }];
  const network = fakeNetwork([
    session,
    ...routes,
    on('GET', DRAFTS, () => json(200, drafts)),
    on('POST', `${DRAFTS}/bulk_publish`, () => {
      const answer = publish();
      if (answer.status === 204) drafts = [];
      return answer;
    }),
  ]);
  renderInApp(<ReviewBar target={{ projectId: 1, iid: 7 }} />);
  return network;
}

async function openDrawer() {
  const bar = await screen.findByRole('region', { name: 'Review' });
  await userEvent.click(within(bar).getByRole('button', { name: 'Submit review' }));
  return screen.findByRole('dialog', { name: 'Submit review' });
}

async function submitWith(verdict: string | null) {
  const network = renderBar([approvals({ user_can_approve: true, require_password_to_approve: false })]);
  const dialog = await openDrawer();
  expect(within(dialog).getAllByRole('radio').map((radio) => (radio as HTMLInputElement).value)).toEqual(['comment', 'approve', 'requested_changes']);
  await waitFor(() => expect((within(dialog).getByRole('radio', { name: /^Approve/ }) as HTMLInputElement).disabled).toBe(false));
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

  it('offers Approve only to those who may approve, as GitLab disables it', async () => {
    renderBar([approvals({ user_can_approve: false, require_password_to_approve: true })]);
    const dialog = await openDrawer();
    await waitFor(() => expect((within(dialog).getByRole('radio', { name: /^Comment/ }) as HTMLInputElement).checked).toBe(true));
    expect((within(dialog).getByRole('radio', { name: /^Approve/ }) as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).queryByLabelText(/Your password/)).toBeNull();
  });
});

describe('Submit review: the approval password', () => {
  it('asks for the password with Approve when the project requires it, says a wrong one is invalid, and sends the right one', async () => {
    let attempts = 0;
    const network = renderBar([approvals({ user_can_approve: true, require_password_to_approve: true })], () =>
      ++attempts === 1 ? json(401, { message: '401 Unauthorized' }) : new Response(null, { status: 204 }),
    );
    const dialog = await openDrawer();
    // Comment asks for no password
    expect(within(dialog).queryByLabelText(/Your password/)).toBeNull();
    const approve = within(dialog).getByRole('radio', { name: /^Approve/ }) as HTMLInputElement;
    await waitFor(() => expect(approve.disabled).toBe(false));
    await userEvent.click(approve);
    const field = await within(dialog).findByLabelText(/Your password/);
    const submit = within(dialog).getByRole('button', { name: 'Submit review' });
    // nothing to send without a password
    expect(submit.hasAttribute('disabled') || submit.getAttribute('aria-disabled') === 'true').toBe(true);

    await userEvent.type(field, 'wrong password');
    await userEvent.click(submit);
    expect(await within(dialog).findByText('Approval password is invalid.')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Submit review' })).toBeTruthy();

    await userEvent.clear(field);
    await userEvent.type(field, 'right password{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(network.sent.filter((request) => request.path.endsWith('/bulk_publish')).map((request) => request.body)).toEqual([
      { approve: true, approval_password: 'wrong password' },
      { approve: true, approval_password: 'right password' },
    ]);
  });
});
