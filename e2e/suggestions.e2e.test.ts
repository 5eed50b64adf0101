import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chooseInTree, viewportShot } from './support/diff-pages.js';
import { browserSession } from './support/session.js';

/**
 * Suggested changes against a real server: a diff comment with a
 * ```suggestion fence shows as a proposed change, Apply (with a commit message) commits it to
 * the source branch, the note says Applied, and a suggestion on the same line turns stale.
 */
const T = 'suggestions';

describe('suggested changes', () => {
  const session = browserSession(T);
  const { rest } = session;
  let page: Page;
  let project: { id: number; path_with_namespace: string };
  let iid = 0;

  const activity = () => page.locator('#notes');
  const suggestionOf = (noteId: number) => activity().locator(`[data-note-id="${noteId}"] [data-suggestion-id]`);

  const snap = (state: string, target: Locator) => session.snap(state, target);

  async function suggest(body: string, refs: Record<string, string>): Promise<number> {
    const thread = await rest<{ notes: Array<{ id: number }> }>('POST', `/projects/${project.id}/merge_requests/${iid}/discussions`, {
      body,
      position: { ...refs, position_type: 'text', old_path: 'app.txt', new_path: 'app.txt', new_line: 2 },
    });
    return thread.notes[0]!.id;
  }

  beforeAll(async () => {
    project = await rest('POST', '/projects', { name: 'suggest', path: 'suggest', visibility: 'private' });
    await rest('POST', `/projects/${project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'Start',
      actions: [{ action: 'create', file_path: 'app.txt', content: 'one\ntwo\nthree\n' }],
    });
    await rest('POST', `/projects/${project.id}/repository/branches`, { branch: 'feature', ref: 'main' });
    await rest('POST', `/projects/${project.id}/repository/commits`, {
      branch: 'feature',
      commit_message: 'Change two',
      actions: [{ action: 'update', file_path: 'app.txt', content: 'one\ntwo changed\nthree\n' }],
    });
    ({ iid } = await rest<{ iid: number }>('POST', `/projects/${project.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Suggest away' }));
    page = await session.signIn();
  });

  it('applies a suggestion from the browser with a commit message, and the other one on that line turns stale', async () => {
    const [version] = await rest<Array<{ base_commit_sha: string; start_commit_sha: string; head_commit_sha: string }>>('GET', `/projects/${project.id}/merge_requests/${iid}/versions`);
    const refs = { base_sha: version!.base_commit_sha, start_sha: version!.start_commit_sha, head_sha: version!.head_commit_sha };
    const first = await suggest('Better:\n```suggestion:-0+0\ntwo, suggested\n```', refs);
    const second = await suggest('Or:\n```suggestion\n2\n```', refs);

    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    const block = suggestionOf(first);
    await block.waitFor();
    // the proposed change: the current line in red, the suggestion in green
    await expect(block.locator('tr[data-line-type="old"]').innerText()).resolves.toContain('two changed');
    await expect(block.locator('tr[data-line-type="new"]').innerText()).resolves.toContain('two, suggested');
    await block.scrollIntoViewIfNeeded();
    await snap('proposed', activity().locator(`[data-note-id="${first}"]`));

    await block.getByRole('button', { name: 'Apply suggestion' }).click();
    const message = page.getByRole('textbox', { name: 'Commit message' });
    await message.fill('Take the suggestion');
    await snap('commit-message', page.locator('body'));
    await page.getByRole('button', { name: 'Apply', exact: true }).click();

    await block.getByText('Applied', { exact: true }).waitFor();
    await expect(block.getByRole('button', { name: 'Apply suggestion' }).count()).resolves.toBe(0);
    const tip = await rest<{ id: string; message: string; title: string }>('GET', `/projects/${project.id}/repository/commits/feature`);
    expect(tip.title).toBe('Take the suggestion');
    const raw = await fetch(new URL(`/api/v4/projects/${project.id}/repository/files/app.txt/raw?ref=feature`, session.server.url), { headers: { 'PRIVATE-TOKEN': session.server.root.token } });
    expect(await raw.text()).toBe('one\ntwo, suggested\nthree\n');

    // the other suggestion's line changed: its Apply is disabled, and says why
    const stale = suggestionOf(second);
    const apply = stale.getByRole('button', { name: 'Apply suggestion' });
    await expect.poll(() => apply.getAttribute('aria-disabled')).toBe('true');
    // hovered again until the tooltip shows: a live refresh of the thread may re-render the button under the pointer
    const why = page.locator('[role="tooltip"]:visible', { hasText: "Can't apply as this line was changed in a more recent version." });
    await expect
      .poll(async () => {
        await page.mouse.move(0, 0);
        await apply.hover();
        return why.waitFor({ timeout: 2_000 }).then(() => true, () => false);
      }, { timeout: 20_000 })
      .toBe(true);
    await snap('applied-and-stale', activity());
  });

  it("writes a suggestion with 'Insert suggestion' in a diff comment on the Changes tab", async () => {
    const changes = () => page.getByRole('region', { name: 'Changes' });
    const form = () => changes().locator('[data-diff-note-form]');
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}/diffs`);
    await page.getByRole('tree', { name: 'Changed files tree' }).waitFor();
    await chooseInTree(page, 'app.txt');
    const row = changes().locator('[data-point]', { hasText: 'three' });
    await row.hover();
    await row.getByRole('button', { name: 'Add a comment to this line or drag for multiple lines' }).click();
    const box = form().getByRole('textbox', { name: 'Comment' });
    await form().getByRole('button', { name: 'Insert suggestion' }).click();
    await expect.poll(() => box.inputValue()).toBe('```suggestion:-0+0\nthree\n```');
    await box.fill('Shout it:\n```suggestion:-0+0\nTHREE\n```');
    await viewportShot(page, T, 'insert-suggestion');
    // the Preview shows the proposed change the posted note will show, not a code block
    await form().getByRole('tab', { name: 'Preview' }).click();
    const preview = form().locator('[data-suggestion-preview]');
    await preview.waitFor();
    await expect(preview.locator('tr[data-line-type="old"]').innerText()).resolves.toContain('three');
    await expect(preview.locator('tr[data-line-type="new"]').innerText()).resolves.toContain('THREE');
    await form().getByText('Shout it:').waitFor();
    expect(await form().locator('pre').count()).toBe(0);
    await viewportShot(page, T, 'suggestion-preview');
    await form().getByRole('tab', { name: 'Write' }).click();
    await form().getByRole('button', { name: 'Add comment now' }).click();
    await changes().locator('[data-suggestion-id]').filter({ hasText: 'THREE' }).waitFor();
    const discussions = await rest<Array<{ notes: Array<{ suggestions?: Array<{ from_content: string; to_content: string; appliable: boolean }> }> }>>(
      'GET',
      `/projects/${project.id}/merge_requests/${iid}/discussions`,
    );
    const created = discussions.flatMap((d) => d.notes).find((n) => n.suggestions?.[0]?.to_content === 'THREE\n');
    expect(created?.suggestions?.[0]).toMatchObject({ from_content: 'three\n', appliable: true });

    // a reply in the diff thread previews its suggestion against the thread's line too
    const thread = changes().locator('[data-discussion-id]').filter({ has: page.locator('[data-suggestion-id]').filter({ hasText: 'THREE' }) });
    await thread.getByRole('textbox', { name: 'Reply to comment' }).click();
    const replyBox = thread.getByRole('textbox', { name: 'Reply to comment' });
    await replyBox.fill('```suggestion:-1+0\ntwo\nthree!\n```');
    await thread.getByRole('tab', { name: 'Preview' }).click();
    const replyPreview = thread.locator('[data-suggestion-preview]');
    await replyPreview.waitFor();
    expect(await replyPreview.locator('tr[data-line-type="old"]').allInnerTexts()).toEqual([expect.stringContaining('two, suggested'), expect.stringContaining('three')]);
    await expect(replyPreview.locator('tr[data-line-type="new"]').allInnerTexts()).resolves.toEqual([expect.stringContaining('two'), expect.stringContaining('three!')]);
    await thread.getByRole('tab', { name: 'Write' }).click();
    await replyBox.fill('');
  });

  it('applies two suggestions as a batch in one commit', async () => {
    const versions = await rest<Array<{ base_commit_sha: string; start_commit_sha: string; head_commit_sha: string }>>('GET', `/projects/${project.id}/merge_requests/${iid}/versions`);
    const latest = versions[0]!;
    const thread = await rest<{ notes: Array<{ id: number }> }>('POST', `/projects/${project.id}/merge_requests/${iid}/discussions`, {
      body: '```suggestion\nONE\n```',
      position: { base_sha: latest.base_commit_sha, start_sha: latest.start_commit_sha, head_sha: latest.head_commit_sha, position_type: 'text', old_path: 'app.txt', new_path: 'app.txt', old_line: 1, new_line: 1 },
    });
    const before = (await rest<{ id: string }>('GET', `/projects/${project.id}/repository/commits/feature`)).id;
    await page.goto(`/${project.path_with_namespace}/-/merge_requests/${iid}`);
    const one = suggestionOf(thread.notes[0]!.id);
    const three = activity().locator('[data-suggestion-id]').filter({ hasText: 'THREE' });
    await three.getByRole('button', { name: 'Add suggestion to batch' }).click();
    await one.getByRole('button', { name: 'Add suggestion to batch' }).click();
    const applyBoth = one.getByRole('button', { name: 'Apply 2 suggestions' });
    await applyBoth.waitFor();
    await snap('batch', activity());
    await applyBoth.click();
    await one.getByText('Applied', { exact: true }).waitFor();
    await three.getByText('Applied', { exact: true }).waitFor();
    const tip = await rest<{ title: string; parent_ids: string[] }>('GET', `/projects/${project.id}/repository/commits/feature`);
    expect(tip).toMatchObject({ title: 'Apply 2 suggestion(s) to 1 file(s)', parent_ids: [before] });
    const raw = await fetch(new URL(`/api/v4/projects/${project.id}/repository/files/app.txt/raw?ref=feature`, session.server.url), { headers: { 'PRIVATE-TOKEN': session.server.root.token } });
    expect(await raw.text()).toBe('ONE\ntwo, suggested\nTHREE\n');
  });
});
