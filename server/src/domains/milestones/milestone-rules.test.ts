import { describe, expect, it } from 'vitest';
import { isExpired, milestoneDatesError, milestoneReference, milestoneTitleError, nextState, parseMilestoneDate } from './milestone-rules.js';

describe('milestone rules', () => {
  it.each([
    ['2026-01-31', '2026-01-31'],
    ['', null],
    [null, null],
    [undefined, undefined],
  ] as const)('parseMilestoneDate(%j) is %j', (value, expected) => expect(parseMilestoneDate('due_date', value)).toBe(expected));

  it.each(['2026-02-30', '31/01/2026', '2026-1-1', 'tomorrow'])('refuses the date %j', (value) => {
    expect(() => parseMilestoneDate('due_date', value)).toThrow('"due_date" is invalid');
  });

  it('checks titles and the order of dates', () => {
    expect(milestoneTitleError(' ')?.body).toEqual({ title: ["can't be blank"] });
    expect(milestoneTitleError('v1.0')).toBeNull();
    expect(milestoneDatesError('2026-02-01', '2026-01-01')?.body).toEqual({ due_date: ['must be greater than start date'] });
    expect(milestoneDatesError('2026-01-01', '2026-01-01')).toBeNull();
    expect(milestoneDatesError(null, '2026-01-01')).toBeNull();
  });

  it.each([
    ['active', 'close', 'closed'],
    ['closed', 'activate', 'active'],
    ['closed', 'close', 'closed'],
    ['active', undefined, 'active'],
  ] as const)('%s + %s = %s', (state, event, expected) => expect(nextState(state, event)).toBe(expected));

  it('is expired only after its due date', () => {
    expect(isExpired('2026-01-01', '2026-01-02')).toBe(true);
    expect(isExpired('2026-01-02', '2026-01-02')).toBe(false);
    expect(isExpired(null, '2026-01-02')).toBe(false);
  });

  it.each([
    [{ iid: 3, title: 'v1.0', group_id: null }, '%3'],
    [{ iid: 3, title: 'v1.0', group_id: 9 }, '%v1.0'],
    [{ iid: 3, title: 'Release 1', group_id: 9 }, '%"Release 1"'],
    [{ iid: 3, title: '2026', group_id: 9 }, '%"2026"'],
  ])('references %j as %s', (milestone, expected) => expect(milestoneReference(milestone)).toBe(expected));
});
