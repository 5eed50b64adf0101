import { describe, expect, it } from 'vitest';
import { buildListQuery, containsPattern, READABLE_TARGET, type MergeRequestListFilter } from './list-filter.js';

const base: MergeRequestListFilter = { scope: 'all', orderBy: 'created_at', sort: 'desc' };
const viewer = { userId: 7, isAdmin: false };
/** The conditions after the visibility one, for readable assertions. */
const conditions = (filter: Partial<MergeRequestListFilter>, who = viewer) => {
  const query = buildListQuery({ ...base, ...filter }, who);
  return { ...query, conditions: query.conditions.slice(1) };
};

describe('buildListQuery', () => {
  it('always limits to merge requests whose target code the viewer may read', () => {
    const query = buildListQuery(base, viewer);
    expect(query.where).toBe(READABLE_TARGET);
    expect(query.params).toEqual([7, false]);
    expect(query.order).toBe('m.created_at DESC, m.id DESC');
  });

  it.each([
    ['created_by_me', 'm.author_id = $1::bigint'],
    ['assigned_to_me', 'EXISTS (SELECT 1 FROM merge_request_assignees x WHERE x.merge_request_id = m.id AND x.user_id = $1::bigint)'],
    ['reviews_for_me', 'EXISTS (SELECT 1 FROM merge_request_reviewers x WHERE x.merge_request_id = m.id AND x.user_id = $1::bigint)'],
  ] as const)('scope %s', (scope, sql) => {
    expect(conditions({ scope }).conditions).toEqual([sql]);
  });

  it('numbers parameters in order and keeps values out of the SQL', () => {
    const { conditions: sql, params } = conditions({
      state: 'opened',
      projectId: 3,
      authorUsername: "o'brien",
      sourceBranch: 'feature/x',
      targetBranch: 'main',
      iids: [1, 2],
      draft: false,
    });
    expect(sql).toEqual([
      'm.state = $3',
      'm.target_project_id = $4',
      'm.author_id = (SELECT u.id FROM users u WHERE lower(u.username) = lower($5))',
      'm.source_branch = $6',
      'm.target_branch = $7',
      'NOT m.draft',
      'm.iid = ANY($8::int[])',
    ]);
    expect(params).toEqual([7, false, 'opened', 3, "o'brien", 'feature/x', 'main', [1, 2]]);
  });

  it.each([
    ['none', 'NOT EXISTS (SELECT 1 FROM merge_request_assignees x WHERE x.merge_request_id = m.id)', []],
    ['any', 'EXISTS (SELECT 1 FROM merge_request_assignees x WHERE x.merge_request_id = m.id)', []],
    [5, 'EXISTS (SELECT 1 FROM merge_request_assignees x WHERE x.merge_request_id = m.id AND x.user_id = $3)', [5]],
  ] as const)('assignee %s', (assignee, sql, extra) => {
    const query = conditions({ assignee });
    expect(query.conditions).toEqual([sql]);
    expect(query.params.slice(2)).toEqual(extra);
  });

  it('reviewer by id and by username', () => {
    expect(conditions({ reviewer: 9 }).conditions).toEqual(['EXISTS (SELECT 1 FROM merge_request_reviewers x WHERE x.merge_request_id = m.id AND x.user_id = $3)']);
    expect(conditions({ reviewerUsername: 'ada' }).conditions[0]).toContain('lower(u.username) = lower($3)');
  });

  it('searches title and description, or only where asked, with LIKE wildcards escaped', () => {
    expect(conditions({ search: '50%_Off' })).toMatchObject({ conditions: ['(lower(m.title) LIKE $3 OR lower(m.description) LIKE $3)'], params: [7, false, '%50\\%\\_off%'] });
    expect(conditions({ search: 'x', searchIn: ['title'] }).conditions).toEqual(['(lower(m.title) LIKE $3)']);
    expect(containsPattern('a\\b')).toBe('%a\\\\b%');
  });

  it('filters by creation and update times', () => {
    const after = new Date('2024-01-01T00:00:00Z');
    expect(conditions({ createdAfter: after, updatedBefore: after })).toMatchObject({ conditions: ['m.created_at >= $3', 'm.updated_at <= $4'], params: [7, false, after, after] });
  });

  it.each([
    ['title', 'asc', 'm.title ASC, m.id ASC'],
    ['updated_at', 'desc', 'm.updated_at DESC, m.id DESC'],
    ['merged_at', 'desc', 'm.merged_at DESC NULLS LAST, m.id DESC'],
  ] as const)('orders by %s %s', (orderBy, sort, order) => {
    expect(buildListQuery({ ...base, orderBy, sort }, viewer).order).toBe(order);
  });

  it('passes an anonymous viewer as a null id', () => {
    expect(buildListQuery(base, { userId: null, isAdmin: false }).params).toEqual([null, false]);
  });

  it('filters by labels and milestones, GitLab’s None and Any included', () => {
    const label = (n: number) => `EXISTS (SELECT 1 FROM merge_request_labels xl JOIN labels l ON l.id = xl.label_id WHERE xl.merge_request_id = m.id AND l.title = $${n})`;
    const query = conditions({ labels: ['bug', 'ux'], notLabels: ['wontfix'], milestone: 'v1.0', notMilestone: 'v0.9' });
    expect(query.conditions).toEqual([
      label(3),
      label(4),
      `NOT ${label(5)}`,
      'EXISTS (SELECT 1 FROM milestones ms WHERE ms.id = m.milestone_id AND ms.title = $6)',
      'NOT EXISTS (SELECT 1 FROM milestones ms WHERE ms.id = m.milestone_id AND ms.title = $7)',
    ]);
    expect(query.params.slice(2)).toEqual(['bug', 'ux', 'wontfix', 'v1.0', 'v0.9']);
    expect(conditions({ labels: 'none', milestone: 'any' }).conditions).toEqual([
      'NOT EXISTS (SELECT 1 FROM merge_request_labels xl WHERE xl.merge_request_id = m.id)',
      'm.milestone_id IS NOT NULL',
    ]);
    expect(conditions({ labels: 'any', milestone: 'none' }).conditions).toEqual(['EXISTS (SELECT 1 FROM merge_request_labels xl WHERE xl.merge_request_id = m.id)', 'm.milestone_id IS NULL']);
  });
});
