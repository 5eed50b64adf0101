import type { Label, LabelCounts } from '../../../domains/labels/labels.repository.js';
import { textColorFor } from '../../../domains/labels/label-rules.js';
import type { Milestone } from '../../../domains/milestones/milestones.repository.js';
import { isExpired } from '../../../domains/milestones/milestone-rules.js';
import type { UrlBuilder } from './users.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** GitLab's Entities::LabelBasic (merge requests' `with_labels_details`). */
export function labelBasic(label: Label) {
  return {
    id: label.id,
    name: label.title,
    description: label.description,
    description_html: label.description ? escapeHtml(label.description) : '',
    text_color: textColorFor(label.color),
    color: label.color,
  };
}

/**
 * GitLab's Entities::ProjectLabel / GroupLabel: project reads add the project's priority and
 * whether the label is the project's own; counts only when asked (`with_counts`); `subscribed`
 * is the caller's subscription (within the project for project reads).
 */
export function labelEntity(label: Label, options: { project?: boolean; counts?: LabelCounts; subscribed?: ReadonlySet<number> } = {}) {
  return {
    ...labelBasic(label),
    ...(options.counts ?? {}),
    subscribed: options.subscribed?.has(label.id) ?? false,
    ...(options.project ? { priority: label.priority, is_project_label: label.project_id !== null } : {}),
    archived: false,
  };
}

/** GitLab's Entities::Milestone: project milestones name their project, group milestones their group. */
export function milestoneEntity(milestone: Milestone, urls: UrlBuilder, today = new Date().toISOString().slice(0, 10)) {
  const owner = milestone.project_id !== null ? { project_id: milestone.project_id } : { group_id: milestone.group_id };
  const path = milestone.project_id !== null ? milestone.owner_full_path : `groups/${milestone.owner_full_path}`;
  return {
    id: milestone.id,
    iid: milestone.iid,
    ...owner,
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.created_at.toISOString(),
    updated_at: milestone.updated_at.toISOString(),
    due_date: milestone.due_date,
    start_date: milestone.start_date,
    expired: isExpired(milestone.due_date, today),
    web_url: urls.web(`${path}/-/milestones/${milestone.iid}`),
  };
}
