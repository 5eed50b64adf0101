/** Milestone rules, GitLab's (Milestone, Timebox): titles, dates, state changes, `expired`. Pure. */
import { ValidationError } from '../../platform/errors.js';

export const MILESTONE_TITLE_MAX = 255;
export type MilestoneState = 'active' | 'closed';

/** `YYYY-MM-DD` (a real calendar day); '' or null clears; anything else is GitLab's 400. */
export function parseMilestoneDate(key: string, value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== value) throw new ValidationError(`400 (Bad request) "${key}" is invalid`);
  return value;
}

export function milestoneTitleError(title: string): ValidationError | null {
  if (title.trim() === '') return ValidationError.field('title', "can't be blank");
  if (title.length > MILESTONE_TITLE_MAX) return ValidationError.field('title', `is too long (maximum is ${MILESTONE_TITLE_MAX} characters)`);
  return null;
}

/** GitLab's Timebox validation: the due date may not come before the start date. */
export function milestoneDatesError(startDate: string | null, dueDate: string | null): ValidationError | null {
  if (startDate && dueDate && dueDate < startDate) return ValidationError.field('due_date', 'must be greater than start date');
  return null;
}

/** GitLab's state_event: close and activate; anything else changes nothing. */
export function nextState(current: MilestoneState, event: 'close' | 'activate' | undefined): MilestoneState {
  if (event === 'close') return 'closed';
  if (event === 'activate') return 'active';
  return current;
}

/** GitLab's Milestone#expired?: a due date before today (UTC). */
export function isExpired(dueDate: string | null, today: string): boolean {
  return dueDate !== null && dueDate < today;
}

/**
 * A milestone's reference in Markdown: `%1` by iid within its project; a group milestone by
 * name, `%v1.0` or `%"Release 1"` (GitLab's Milestone#to_reference with format :iid / :name).
 */
export function milestoneReference(milestone: { iid: number; title: string; group_id: number | null }): string {
  if (milestone.group_id === null) return `%${milestone.iid}`;
  return /^[A-Za-z0-9_\-.]+$/.test(milestone.title) && !/^\d+$/.test(milestone.title) ? `%${milestone.title}` : `%"${milestone.title.replace(/"/g, '')}"`;
}
