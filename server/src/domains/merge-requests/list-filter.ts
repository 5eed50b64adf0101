/**
 * The merge request list filters (GET /merge_requests, /projects/:id/merge_requests) turned
 * into one SQL condition with numbered parameters. Pure: the repository runs the result,
 * tests read it. Aliases: `m` merge_requests, `p` the target project, `n` its namespace.
 * $1 is the viewer's user id (null when anonymous), $2 whether they are an administrator.
 */
import { projectReadableSql } from '../../auth/readable-sql.js';
import type { MergeRequestState } from './merge-request.js';

export type MergeRequestScope = 'all' | 'created_by_me' | 'assigned_to_me' | 'reviews_for_me';
/** A user id, or GitLab's `None` / `Any`. */
export type UserMatch = number | 'none' | 'any';
export const LIST_ORDERS = ['created_at', 'updated_at', 'title', 'merged_at'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

export interface MergeRequestListFilter {
  scope: MergeRequestScope;
  /** absent: every state */
  state?: MergeRequestState;
  projectId?: number;
  authorId?: number;
  authorUsername?: string;
  assignee?: UserMatch;
  assigneeUsername?: string;
  reviewer?: UserMatch;
  reviewerUsername?: string;
  sourceBranch?: string;
  targetBranch?: string;
  search?: string;
  /** where `search` looks; both when empty */
  searchIn?: Array<'title' | 'description'>;
  draft?: boolean;
  iids?: number[];
  createdAfter?: Date;
  createdBefore?: Date;
  updatedAfter?: Date;
  updatedBefore?: Date;
  /** every one of these label titles; or GitLab's `None` / `Any` */
  labels?: string[] | 'none' | 'any';
  /** none of these label titles (`not[labels]`) */
  notLabels?: string[];
  /** a milestone title, or `None` / `Any` */
  milestone?: string | 'none' | 'any';
  /** not this milestone title (`not[milestone]`) */
  notMilestone?: string;
  orderBy: ListOrder;
  sort: 'asc' | 'desc';
}

export interface Viewer {
  userId: number | null;
  isAdmin: boolean;
}

export interface ListQuery {
  where: string;
  /** the conditions `where` joins with AND, the visibility one first */
  conditions: string[];
  params: unknown[];
  order: string;
}

/**
 * May the viewer read merge requests of target project `p`? They show code, so this is
 * permissions.ts's read_merge_request (download_code and the merge requests feature), in SQL
 * (auth/readable-sql.ts).
 */
export const READABLE_TARGET = `(NOT p.pending_delete AND ${projectReadableSql('read_merge_request', { user: '$1::bigint', admin: '$2::boolean' })})`;

/** `%text%` for LIKE, with LIKE's own wildcards in `text` taken literally. */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function userCondition(table: 'merge_request_assignees' | 'merge_request_reviewers', match: UserMatch, param: (value: unknown) => string): string {
  const exists = `EXISTS (SELECT 1 FROM ${table} x WHERE x.merge_request_id = m.id`;
  if (match === 'none') return `NOT ${exists})`;
  if (match === 'any') return `${exists})`;
  return `${exists} AND x.user_id = ${param(match)})`;
}

export function buildListQuery(filter: MergeRequestListFilter, viewer: Viewer): ListQuery {
  const params: unknown[] = [viewer.userId, viewer.isAdmin];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const where = [READABLE_TARGET];
  const byUsername = (username: string) => `(SELECT u.id FROM users u WHERE lower(u.username) = lower(${param(username)}))`;

  if (filter.scope === 'created_by_me') where.push('m.author_id = $1::bigint');
  if (filter.scope === 'assigned_to_me') where.push('EXISTS (SELECT 1 FROM merge_request_assignees x WHERE x.merge_request_id = m.id AND x.user_id = $1::bigint)');
  if (filter.scope === 'reviews_for_me') where.push('EXISTS (SELECT 1 FROM merge_request_reviewers x WHERE x.merge_request_id = m.id AND x.user_id = $1::bigint)');
  if (filter.state) where.push(`m.state = ${param(filter.state)}`);
  if (filter.projectId !== undefined) where.push(`m.target_project_id = ${param(filter.projectId)}`);
  if (filter.authorId !== undefined) where.push(`m.author_id = ${param(filter.authorId)}`);
  if (filter.authorUsername) where.push(`m.author_id = ${byUsername(filter.authorUsername)}`);
  if (filter.assignee !== undefined) where.push(userCondition('merge_request_assignees', filter.assignee, param));
  if (filter.assigneeUsername) where.push(`EXISTS (SELECT 1 FROM merge_request_assignees x WHERE x.merge_request_id = m.id AND x.user_id = ${byUsername(filter.assigneeUsername)})`);
  if (filter.reviewer !== undefined) where.push(userCondition('merge_request_reviewers', filter.reviewer, param));
  if (filter.reviewerUsername) where.push(`EXISTS (SELECT 1 FROM merge_request_reviewers x WHERE x.merge_request_id = m.id AND x.user_id = ${byUsername(filter.reviewerUsername)})`);
  if (filter.sourceBranch) where.push(`m.source_branch = ${param(filter.sourceBranch)}`);
  if (filter.targetBranch) where.push(`m.target_branch = ${param(filter.targetBranch)}`);
  if (filter.search) {
    const pattern = param(containsPattern(filter.search));
    const fields = filter.searchIn?.length ? filter.searchIn : ['title', 'description'];
    where.push(`(${fields.map((field) => `lower(m.${field}) LIKE ${pattern}`).join(' OR ')})`);
  }
  if (filter.draft !== undefined) where.push(filter.draft ? 'm.draft' : 'NOT m.draft');
  if (filter.iids) where.push(`m.iid = ANY(${param(filter.iids)}::int[])`);
  const labelled = (title: string) => `EXISTS (SELECT 1 FROM merge_request_labels xl JOIN labels l ON l.id = xl.label_id WHERE xl.merge_request_id = m.id AND l.title = ${param(title)})`;
  if (filter.labels === 'none') where.push('NOT EXISTS (SELECT 1 FROM merge_request_labels xl WHERE xl.merge_request_id = m.id)');
  else if (filter.labels === 'any') where.push('EXISTS (SELECT 1 FROM merge_request_labels xl WHERE xl.merge_request_id = m.id)');
  else for (const title of filter.labels ?? []) where.push(labelled(title));
  for (const title of filter.notLabels ?? []) where.push(`NOT ${labelled(title)}`);
  const milestoneTitled = (title: string) => `EXISTS (SELECT 1 FROM milestones ms WHERE ms.id = m.milestone_id AND ms.title = ${param(title)})`;
  if (filter.milestone === 'none') where.push('m.milestone_id IS NULL');
  else if (filter.milestone === 'any') where.push('m.milestone_id IS NOT NULL');
  else if (filter.milestone !== undefined) where.push(milestoneTitled(filter.milestone));
  if (filter.notMilestone !== undefined) where.push(`NOT ${milestoneTitled(filter.notMilestone)}`);
  if (filter.createdAfter) where.push(`m.created_at >= ${param(filter.createdAfter)}`);
  if (filter.createdBefore) where.push(`m.created_at <= ${param(filter.createdBefore)}`);
  if (filter.updatedAfter) where.push(`m.updated_at >= ${param(filter.updatedAfter)}`);
  if (filter.updatedBefore) where.push(`m.updated_at <= ${param(filter.updatedBefore)}`);

  const direction = filter.sort === 'asc' ? 'ASC' : 'DESC';
  // Column names come from LIST_ORDERS, never from the request; nulls (unmerged) go last.
  const order = `m.${filter.orderBy} ${direction}${filter.orderBy === 'merged_at' ? ' NULLS LAST' : ''}, m.id ${direction}`;
  return { where: where.join(' AND '), conditions: where, params, order };
}
