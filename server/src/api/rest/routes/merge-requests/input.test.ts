import { describe, expect, it } from 'vitest';
import { coerceInput } from '../../input/coerce.js';
import { createInput, listFilter, MergeRequestCreate, MergeRequestList, MergeRequestUpdate, updateInput } from './input.js';

const create = (raw: Record<string, unknown>) => createInput(coerceInput(MergeRequestCreate, { id: '1', ...raw }));
const update = (raw: Record<string, unknown>) => updateInput(coerceInput(MergeRequestUpdate, { id: '1', iid: '1', ...raw }));
const list = (raw: Record<string, unknown>, scope: 'all' | 'created_by_me' = 'all') => listFilter(coerceInput(MergeRequestList, raw), { scope });

describe('merge request parameters', () => {
  it('requires source_branch, target_branch and title on create (Grape’s "is missing")', () => {
    expect(() => create({ target_branch: 'main', title: 'x' })).toThrow('source_branch is missing');
    expect(() => create({ source_branch: 'a', target_branch: 'main' })).toThrow('title is missing');
  });

  it('coerces Grape-style values', () => {
    expect(create({ source_branch: 'a', target_branch: 'main', title: 'x', squash: 'true', remove_source_branch: '1', assignee_ids: ['3', '4'], reviewer_ids: '5,6', target_project_id: 9 })).toMatchObject({
      squash: true,
      removeSourceBranch: true,
      assigneeIds: [3, 4],
      reviewerIds: [5, 6],
      targetProjectId: '9',
    });
    expect(create({ source_branch: 'a', target_branch: 'm', title: 'x', assignee_id: '7' }).assigneeIds).toEqual([7]);
    expect(create({ source_branch: 'a', target_branch: 'm', title: 'x', assignee_id: 0 }).assigneeIds).toEqual([]);
    expect(create({ source_branch: 'a', target_branch: 'm', title: 'x', assignee_id: '' }).assigneeIds).toEqual([]);
    expect(() => create({ source_branch: 'a', target_branch: 'm', title: 'x', reviewer_ids: ['x'] })).toThrow('reviewer_ids is invalid');
  });

  it('needs at least one parameter on update; 0, "" or null removes the milestone', () => {
    expect(() => update({})).toThrow(/at least one parameter must be provided/);
    expect(update({ state_event: 'close' }).stateEvent).toBe('close');
    expect(() => update({ state_event: 'merge' })).toThrow('state_event does not have a valid value');
    expect(update({ draft: 'false' }).draft).toBe(false);
    for (const none of [0, '0', '', null]) expect(update({ milestone_id: none }).milestoneId).toBeNull();
    expect(update({ labels: '' }).labels).toEqual([]);
    expect(() => update({ milestone_id: 'soon' })).toThrow('milestone_id is invalid');
  });

  it('parses list filters with GitLab defaults and names', () => {
    expect(list({}, 'created_by_me')).toMatchObject({ scope: 'created_by_me', state: undefined, orderBy: 'created_at', sort: 'desc' });
    expect(
      list({ scope: 'assigned-to-me', state: 'opened', assignee_id: 'None', reviewer_id: '4', wip: 'yes', in: 'title', iids: ['1', '2'], order_by: 'title', sort: 'asc', created_after: '2024-01-01T00:00:00Z' }),
    ).toMatchObject({ scope: 'assigned_to_me', state: 'opened', assignee: 'none', reviewer: 4, draft: true, searchIn: ['title'], iids: [1, 2], orderBy: 'title', sort: 'asc', createdAfter: new Date('2024-01-01T00:00:00Z') });
    expect(list({ draft: 'no', assignee_id: 'any' })).toMatchObject({ draft: false, assignee: 'any' });
    expect(list({ labels: 'None', not: { labels: 'a,b', milestone: 'v1' } })).toMatchObject({ labels: 'none', notLabels: ['a', 'b'], notMilestone: 'v1' });
  });

  it.each([
    [{ order_by: 'priority' }, 'order_by does not have a valid value'],
    [{ scope: 'mine' }, 'scope does not have a valid value'],
    [{ state: 'open' }, 'state does not have a valid value'],
    [{ in: 'body' }, 'in is invalid'],
    [{ wip: 'maybe' }, 'wip is invalid'],
    [{ created_before: 'yesterday-ish' }, 'created_before is invalid'],
    [{ assignee_id: '-1' }, 'assignee_id is invalid'],
  ])('refuses %j', (params, message) => {
    expect(() => list(params)).toThrow(message);
  });

  it('takes only positive integer iids from the path (404 otherwise)', () => {
    const path = (iid: string) => coerceInput<{ iid: number }>(MergeRequestUpdate, { id: '1', iid, title: 'x' });
    expect(path('12').iid).toBe(12);
    for (const bad of ['0', '1e3', '99999999999', 'x']) expect(() => path(bad)).toThrow('404 Merge Request Not Found');
  });
});
