import { describe, expect, it } from 'vitest';
import { optionalIdList, parseCreate, parseIid, parseListFilter, parseUpdate } from './input.js';

describe('merge request parameters', () => {
  it('requires source_branch, target_branch and title on create', () => {
    expect(() => parseCreate({ target_branch: 'main', title: 'x' })).toThrow('400 (Bad request) "source_branch" not given');
    expect(() => parseCreate({ source_branch: 'a', target_branch: 'main' })).toThrow('"title" not given');
  });

  it('coerces Grape-style values', () => {
    expect(parseCreate({ source_branch: 'a', target_branch: 'main', title: 'x', squash: 'true', remove_source_branch: '1', assignee_ids: ['3', '4'], reviewer_ids: '5,6', target_project_id: 9 })).toMatchObject({
      squash: true,
      removeSourceBranch: true,
      assigneeIds: [3, 4],
      reviewerIds: [5, 6],
      targetProjectId: '9',
    });
    expect(parseCreate({ source_branch: 'a', target_branch: 'm', title: 'x', assignee_id: '7' }).assigneeIds).toEqual([7]);
    expect(parseCreate({ source_branch: 'a', target_branch: 'm', title: 'x', assignee_id: 0 }).assigneeIds).toEqual([]);
    expect(optionalIdList({ ids: 5 }, 'ids')).toEqual([5]);
    expect(() => optionalIdList({ ids: ['x'] }, 'ids')).toThrow('"ids" is invalid');
  });

  it('needs at least one parameter on update', () => {
    expect(() => parseUpdate({})).toThrow(/at least one parameter must be provided/);
    expect(parseUpdate({ state_event: 'close' }).stateEvent).toBe('close');
    expect(() => parseUpdate({ state_event: 'merge' })).toThrow('"state_event" does not have a valid value');
    expect(parseUpdate({ draft: 'false' }).draft).toBe(false);
  });

  it('parses list filters with GitLab defaults and names', () => {
    expect(parseListFilter({}, { scope: 'created_by_me' })).toMatchObject({ scope: 'created_by_me', state: undefined, orderBy: 'created_at', sort: 'desc' });
    expect(
      parseListFilter(
        { scope: 'assigned-to-me', state: 'opened', assignee_id: 'None', reviewer_id: '4', wip: 'yes', in: 'title', 'iids': ['1', '2'], order_by: 'title', sort: 'asc', created_after: '2024-01-01T00:00:00Z' },
        { scope: 'all' },
      ),
    ).toMatchObject({ scope: 'assigned_to_me', state: 'opened', assignee: 'none', reviewer: 4, draft: true, searchIn: ['title'], iids: [1, 2], orderBy: 'title', sort: 'asc', createdAfter: new Date('2024-01-01T00:00:00Z') });
    expect(parseListFilter({ draft: 'no', assignee_id: 'any' }, { scope: 'all' })).toMatchObject({ draft: false, assignee: 'any' });
  });

  it.each([
    [{ order_by: 'priority' }, '"order_by" does not have a valid value'],
    [{ scope: 'mine' }, '"scope" does not have a valid value'],
    [{ state: 'open' }, '"state" does not have a valid value'],
    [{ in: 'body' }, '"in" is invalid'],
    [{ wip: 'maybe' }, '"wip" is invalid'],
    [{ created_before: 'yesterday-ish' }, '"created_before" is invalid'],
    [{ assignee_id: '-1' }, '"assignee_id" is invalid'],
  ])('refuses %j', (params, message) => {
    expect(() => parseListFilter(params, { scope: 'all' })).toThrow(message);
  });

  it('takes only positive integer iids from the path', () => {
    expect(parseIid('12')).toBe(12);
    expect(parseIid('0')).toBeNull();
    expect(parseIid('1e3')).toBeNull();
    expect(parseIid('99999999999')).toBeNull();
  });
});
