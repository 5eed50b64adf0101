// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { t } from '@tributary/contracts';
import { describe, expect, it } from 'vitest';
import { fakeNetwork, json, on, renderInApp, type Route, type SentRequest } from '../../test-support/component';
import { queryClient } from '../../app/client';
import type { MergeRequest, Project } from '../../lib/gitlab-types';
import { ActivitySection } from './ActivitySection';
import { CONFLICT_MESSAGE } from './NoteItem';
import type { DiscussionEntity, NoteEntity } from './types';

const PROJECT = { id: 1, path_with_namespace: 'acme/app', permissions: { project_access: { access_level: 30 }, group_access: null } } as unknown as Project;
const MR = { id: 70, iid: 7, author: { id: 2 } } as unknown as MergeRequest;
const ME = { id: 1, username: 'root', name: 'Root', state: 'active', avatar_url: null, web_url: '/root' };
const NOTE_PATH = '/api/v4/projects/1/merge_requests/7/notes/101';
const DISCUSSIONS_PATH = '/api/v4/projects/1/merge_requests/7/discussions';

function note(change: Partial<NoteEntity> = {}): NoteEntity {
  return {
    id: 101,
    type: null,
    body: 'First version',
    author: ME,
    created_at: '2026-11-27T10:00:00Z',
    updated_at: '2026-11-27T10:00:00Z',
    system: false,
    resolvable: false,
    internal: false,
    lock_version: 3,
    last_edited_at: null,
    current_user: { can_edit: true, can_delete: true, can_award_emoji: true, can_resolve_discussion: false },
    ...change,
  };
}

const thread = (current: NoteEntity): DiscussionEntity => ({ id: 'd1', individual_note: true, notes: [current] });

/**
 * The Activity section of merge request !7 with one comment of the signed-in user; the server
 * holds `server.note` (a test changes it as another user's edit would), renders Markdown as
 * `<p>text</p>`, and answers the note's PUT with `answerPut`.
 */
function activity(answerPut: (request: SentRequest) => Response | Promise<Response>) {
  const server = { note: note() };
  const routes: Route[] = [
    on('GET', '/-/session', () => json(200, { csrf_token: 'token', user: ME })),
    on('GET', DISCUSSIONS_PATH, () => json(200, [thread(server.note)])),
    on('GET', '/-/projects/1/merge_requests/7/note_author_roles', () => json(200, {})),
    on('GET', '/api/v4/projects/1/merge_requests/7/draft_notes', () => json(200, [])),
    on('POST', '/-/projects/1/markdown', (request) => json(200, { html: (request.body as { texts: string[] }).texts.map((text) => `<p>${text}</p>`) })),
    (request) => (request.method === 'GET' && request.path.endsWith('/award_emoji') ? json(200, []) : undefined),
    on('PUT', NOTE_PATH, answerPut),
  ];
  const network = fakeNetwork(routes);
  renderInApp(<ActivitySection project={PROJECT} mr={MR} />, { path: '/acme/app/-/merge_requests/7' });
  return { server, network, puts: () => network.sent.filter((request) => request.method === 'PUT') };
}

const comment = () => screen.findByRole('article', { name: t('Comment') });

/** Opens the editor of the comment and replaces its text. */
async function edit(text: string) {
  const article = await comment();
  await within(article).findByText('First version');
  await userEvent.click(within(article).getByRole('button', { name: t('Edit comment') }));
  const field = within(article).getByRole('textbox', { name: t('Edit comment') });
  expect(document.activeElement).toBe(field);
  await userEvent.clear(field);
  await userEvent.type(field, text);
  return article;
}

describe("editing a comment: the new text at once, the server's answer after", () => {
  it('shows the edited body before the server answers, and keeps it when the save succeeds', async () => {
    let answer: (response: Response) => void = () => {};
    const { puts } = activity(() => new Promise<Response>((resolve) => (answer = resolve)));
    const article = await edit('Second version');
    await userEvent.click(within(article).getByRole('button', { name: t('Save comment') }));

    // the server has not answered: the editor is closed and the new text shows
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(puts()[0]!.body).toEqual({ body: 'Second version', lock_version: 3 });
    expect(await within(article).findByText('Second version')).toBeTruthy();
    expect(within(article).queryByRole('textbox')).toBeNull();

    answer(json(200, note({ body: 'Second version', lock_version: 4, last_edited_at: '2026-11-27T11:00:00Z', last_edited_by: ME })));
    expect(await within(article).findByText(t('Edited'), { exact: false })).toBeTruthy();
    expect(within(article).getByText('Second version')).toBeTruthy();
    expect(within(article).queryByRole('alert')).toBeNull();
  });

  it('Escape in the editor cancels an unchanged edit without asking', async () => {
    activity(() => json(500, {}));
    const article = await comment();
    await within(article).findByText('First version');
    await userEvent.click(within(article).getByRole('button', { name: t('Edit comment') }));
    await userEvent.keyboard('{Escape}');
    expect(within(article).queryByRole('textbox')).toBeNull();
    expect(within(article).getByText('First version')).toBeTruthy();
  });
});

describe('a stale edit: GitLab answers 409 when the comment changed since the editor opened', () => {
  /** Another user saved version 4 while this one was editing version 3. */
  function conflicting() {
    const state = activity((request) => {
      if ((request.body as { lock_version: number }).lock_version !== state.server.note.lock_version) return json(409, { message: CONFLICT_MESSAGE });
      return json(200, note({ body: (request.body as { body: string }).body, lock_version: state.server.note.lock_version + 1 }));
    });
    return state;
  }

  it('puts the editor back with the text typed, warns, and refreshes the comment from the server', async () => {
    const { server, network, puts } = conflicting();
    const article = await edit('My version');
    server.note = note({ body: 'Their version', lock_version: 4 });
    const listReads = network.sent.filter((request) => request.path === DISCUSSIONS_PATH).length;
    await userEvent.click(within(article).getByRole('button', { name: t('Save comment') }));

    const alert = await within(article).findByRole('alert');
    expect(alert.textContent).toContain(t(CONFLICT_MESSAGE));
    expect(within(alert).getByRole('link', { name: t('Updated comment') }).getAttribute('href')).toBe('#note_101');
    expect((within(article).getByRole('textbox', { name: t('Edit comment') }) as HTMLTextAreaElement).value).toBe('My version');
    expect(puts()[0]!.body).toEqual({ body: 'My version', lock_version: 3 });
    // the list is read again, so the newer version is what the page holds
    await waitFor(() => expect(network.sent.filter((request) => request.path === DISCUSSIONS_PATH).length).toBeGreaterThan(listReads));

    // cancelling (and confirming: the text differs) shows the other user's version
    await userEvent.click(within(article).getByRole('button', { name: t('Cancel') }));
    const confirm = await screen.findByRole('alertdialog', { name: t('Cancel editing') });
    await userEvent.click(within(confirm).getByRole('button', { name: t('Cancel editing') }));
    expect(await within(article).findByText('Their version')).toBeTruthy();
    expect(within(article).queryByText('My version')).toBeNull();
  });

  it('saving again after the warning sends the newer version and keeps the text', async () => {
    const { server, network, puts } = conflicting();
    const article = await edit('My version');
    server.note = note({ body: 'Their version', lock_version: 4 });
    const listReads = network.sent.filter((request) => request.path === DISCUSSIONS_PATH).length;
    await userEvent.click(within(article).getByRole('button', { name: t('Save comment') }));
    await within(article).findByRole('alert');
    // wait until the refreshed comment (version 4) has reached the page's cache
    await waitFor(() => expect(network.sent.filter((request) => request.path === DISCUSSIONS_PATH).length).toBeGreaterThan(listReads));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    await userEvent.click(within(article).getByRole('button', { name: t('Save comment') }));

    await waitFor(() => expect(puts()).toHaveLength(2));
    expect(puts()[1]!.body).toEqual({ body: 'My version', lock_version: 4 });
    expect(await within(article).findByText('My version')).toBeTruthy();
    expect(within(article).queryByRole('alert')).toBeNull();
  });
});
