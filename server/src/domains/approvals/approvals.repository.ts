/**
 * All SQL of approvals: project and merge request rules with their users, groups and branches,
 * the approvals, the settings of every level, and who may approve (effective access levels).
 */
import { AccessLevel } from '@tributary/contracts';
import { on, type Queryable } from '../../platform/db/database.js';
import type { Approval, MergeRequestApprovalRule, ReviewerState, ProjectApprovalRule, ReportType, RuleType } from './approval-rule.js';
import { APPROVAL_SETTING_KEYS, type ApprovalSettingKey, type InstanceApprovalSettings, type StoredApprovalSettings } from './approval-settings.js';

export interface RuleWrite {
  name: string;
  approvalsRequired: number;
  ruleType: RuleType;
  reportType: ReportType | null;
  appliesToAllProtectedBranches?: boolean;
  section?: string | null;
  approvalProjectRuleId?: number | null;
}

const PROJECT_RULE = `SELECT r.id, r.project_id, r.name, r.approvals_required, r.rule_type, r.report_type, r.applies_to_all_protected_branches,
    COALESCE((SELECT array_agg(u.user_id ORDER BY u.user_id) FROM approval_project_rule_users u WHERE u.rule_id = r.id), '{}') AS user_ids,
    COALESCE((SELECT array_agg(g.group_id ORDER BY g.group_id) FROM approval_project_rule_groups g WHERE g.rule_id = r.id), '{}') AS group_ids,
    COALESCE((SELECT array_agg(b.protected_branch_id ORDER BY b.protected_branch_id) FROM approval_project_rule_protected_branches b WHERE b.rule_id = r.id), '{}') AS protected_branch_ids
  FROM approval_project_rules r`;

const MR_RULE = `SELECT r.id, r.merge_request_id, r.name, r.approvals_required, r.rule_type, r.report_type, r.section, r.approval_project_rule_id,
    COALESCE((SELECT array_agg(u.user_id ORDER BY u.user_id) FROM approval_merge_request_rule_users u WHERE u.rule_id = r.id), '{}') AS user_ids,
    COALESCE((SELECT array_agg(g.group_id ORDER BY g.group_id) FROM approval_merge_request_rule_groups g WHERE g.rule_id = r.id), '{}') AS group_ids
  FROM approval_merge_request_rules r`;

const ids = (values: unknown[]): number[] => values.map(Number);
const projectRule = (row: ProjectApprovalRule): ProjectApprovalRule => ({ ...row, id: Number(row.id), project_id: Number(row.project_id), user_ids: ids(row.user_ids), group_ids: ids(row.group_ids), protected_branch_ids: ids(row.protected_branch_ids) });
const mrRule = (row: MergeRequestApprovalRule): MergeRequestApprovalRule => ({
  ...row,
  id: Number(row.id),
  merge_request_id: Number(row.merge_request_id),
  approval_project_rule_id: row.approval_project_rule_id === null ? null : Number(row.approval_project_rule_id),
  user_ids: ids(row.user_ids),
  group_ids: ids(row.group_ids),
});

type Owner = { kind: 'project'; id: number } | { kind: 'merge_request'; id: number };
const tables = (owner: Owner) =>
  owner.kind === 'project'
    ? { rules: 'approval_project_rules', users: 'approval_project_rule_users', groups: 'approval_project_rule_groups', column: 'project_id' }
    : { rules: 'approval_merge_request_rules', users: 'approval_merge_request_rule_users', groups: 'approval_merge_request_rule_groups', column: 'merge_request_id' };

export function createApprovalsRepository(db: Queryable) {
  async function setMembers(owner: Owner, ruleId: number, members: { userIds?: number[]; groupIds?: number[]; protectedBranchIds?: number[] }, tx?: Queryable): Promise<void> {
    const q = on(db, tx);
    const t = tables(owner);
    if (members.userIds !== undefined) {
      await q.query(`DELETE FROM ${t.users} WHERE rule_id = $1`, [ruleId]);
      await q.query(`INSERT INTO ${t.users} (rule_id, user_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [ruleId, members.userIds]);
    }
    if (members.groupIds !== undefined) {
      await q.query(`DELETE FROM ${t.groups} WHERE rule_id = $1`, [ruleId]);
      await q.query(`INSERT INTO ${t.groups} (rule_id, group_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`, [ruleId, members.groupIds]);
    }
    if (members.protectedBranchIds !== undefined && owner.kind === 'project') {
      await q.query('DELETE FROM approval_project_rule_protected_branches WHERE rule_id = $1', [ruleId]);
      await q.query('INSERT INTO approval_project_rule_protected_branches (rule_id, protected_branch_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING', [ruleId, members.protectedBranchIds]);
    }
  }

  return {
    setMembers,

    async projectRules(projectId: number, tx?: Queryable): Promise<ProjectApprovalRule[]> {
      const { rows } = await on(db, tx).query<ProjectApprovalRule>(`${PROJECT_RULE} WHERE r.project_id = $1 ORDER BY r.id`, [projectId]);
      return rows.map(projectRule);
    },

    async mergeRequestRules(mergeRequestId: number, tx?: Queryable): Promise<MergeRequestApprovalRule[]> {
      const { rows } = await on(db, tx).query<MergeRequestApprovalRule>(`${MR_RULE} WHERE r.merge_request_id = $1 ORDER BY r.id`, [mergeRequestId]);
      return rows.map(mrRule);
    },

    /** Inserts a rule of a project or merge request; null when the name (or the one any_approver rule) is taken. */
    async insertRule(owner: Owner, rule: RuleWrite, tx?: Queryable): Promise<number | null> {
      const t = tables(owner);
      const extra = owner.kind === 'project' ? { column: 'applies_to_all_protected_branches', value: rule.appliesToAllProtectedBranches ?? false } : null;
      const { rows } = await on(db, tx).query<{ id: number }>(
        owner.kind === 'project'
          ? `INSERT INTO ${t.rules} (${t.column}, name, approvals_required, rule_type, report_type, ${extra!.column}) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING id`
          : `INSERT INTO ${t.rules} (${t.column}, name, approvals_required, rule_type, report_type, section, approval_project_rule_id) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        owner.kind === 'project'
          ? [owner.id, rule.name, rule.approvalsRequired, rule.ruleType, rule.reportType, extra!.value]
          : [owner.id, rule.name, rule.approvalsRequired, rule.ruleType, rule.reportType, rule.section ?? null, rule.approvalProjectRuleId ?? null],
      );
      return rows[0] ? Number(rows[0].id) : null;
    },

    /** Updates a rule's fields; false when it does not belong to `owner`; null when the new name is taken. */
    async updateRule(owner: Owner, ruleId: number, fields: Partial<Pick<RuleWrite, 'name' | 'approvalsRequired' | 'appliesToAllProtectedBranches'>>, tx?: Queryable): Promise<boolean> {
      const t = tables(owner);
      const sets: string[] = ['updated_at = now()'];
      const params: unknown[] = [ruleId, owner.id];
      if (fields.name !== undefined) sets.push(`name = $${params.push(fields.name)}`);
      if (fields.approvalsRequired !== undefined) sets.push(`approvals_required = $${params.push(fields.approvalsRequired)}`);
      if (fields.appliesToAllProtectedBranches !== undefined && owner.kind === 'project') sets.push(`applies_to_all_protected_branches = $${params.push(fields.appliesToAllProtectedBranches)}`);
      const { rowCount } = await on(db, tx).query(`UPDATE ${t.rules} SET ${sets.join(', ')} WHERE id = $1 AND ${t.column} = $2`, params);
      return rowCount > 0;
    },

    async deleteRule(owner: Owner, ruleId: number, tx?: Queryable): Promise<boolean> {
      const t = tables(owner);
      const { rowCount } = await on(db, tx).query(`DELETE FROM ${t.rules} WHERE id = $1 AND ${t.column} = $2`, [ruleId, owner.id]);
      return rowCount > 0;
    },

    /** Copies the project's rules (with users and groups) to a new merge request. */
    async copyProjectRules(projectId: number, mergeRequestId: number, ruleIds: number[], tx?: Queryable): Promise<void> {
      if (ruleIds.length === 0) return;
      const q = on(db, tx);
      const { rows } = await q.query<{ id: number; source: number }>(
        `INSERT INTO approval_merge_request_rules (merge_request_id, name, approvals_required, rule_type, report_type, approval_project_rule_id)
         SELECT $1, r.name, r.approvals_required, r.rule_type, r.report_type, r.id FROM approval_project_rules r
          WHERE r.project_id = $2 AND r.id = ANY($3::bigint[]) ORDER BY r.id
         RETURNING id, approval_project_rule_id AS source`,
        [mergeRequestId, projectId, ruleIds],
      );
      const map = rows.map((row) => [Number(row.id), Number(row.source)]);
      await q.query(
        `INSERT INTO approval_merge_request_rule_users (rule_id, user_id)
         SELECT m.id, u.user_id FROM unnest($1::bigint[], $2::bigint[]) AS m (id, source) JOIN approval_project_rule_users u ON u.rule_id = m.source`,
        [map.map((pair) => pair[0]), map.map((pair) => pair[1])],
      );
      await q.query(
        `INSERT INTO approval_merge_request_rule_groups (rule_id, group_id)
         SELECT m.id, g.group_id FROM unnest($1::bigint[], $2::bigint[]) AS m (id, source) JOIN approval_project_rule_groups g ON g.rule_id = m.source`,
        [map.map((pair) => pair[0]), map.map((pair) => pair[1])],
      );
    },

    async setOverwritten(mergeRequestId: number, overwritten: boolean, tx?: Queryable): Promise<void> {
      await on(db, tx).query('UPDATE merge_requests SET approval_rules_overwritten = $2 WHERE id = $1 AND approval_rules_overwritten <> $2', [mergeRequestId, overwritten]);
    },

    async isOverwritten(mergeRequestId: number, tx?: Queryable): Promise<boolean> {
      const { rows } = await on(db, tx).query<{ approval_rules_overwritten: boolean }>('SELECT approval_rules_overwritten FROM merge_requests WHERE id = $1', [mergeRequestId]);
      return rows[0]?.approval_rules_overwritten ?? false;
    },

    /** Protected branch ids of the project whose name or wildcard matches `branch` are decided by the caller; this lists them. */
    async protectedBranches(projectId: number, tx?: Queryable): Promise<Array<{ id: number; name: string; code_owner_approval_required: boolean }>> {
      const { rows } = await on(db, tx).query<{ id: number; name: string; code_owner_approval_required: boolean }>('SELECT id, name, code_owner_approval_required FROM protected_branches WHERE project_id = $1 ORDER BY id', [projectId]);
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
    },

    async approvals(mergeRequestId: number, tx?: Queryable): Promise<Approval[]> {
      const { rows } = await on(db, tx).query<Approval>('SELECT user_id, sha, patch_id_sha, created_at FROM merge_request_approvals WHERE merge_request_id = $1 ORDER BY id', [mergeRequestId]);
      return rows.map((row) => ({ ...row, user_id: Number(row.user_id) }));
    },

    /** One approval per user: false when the user had approved already (a concurrent call included). */
    async insertApproval(mergeRequestId: number, userId: number, sha: string | null, patchIdSha: string | null, tx?: Queryable): Promise<boolean> {
      const { rowCount } = await on(db, tx).query(
        'INSERT INTO merge_request_approvals (merge_request_id, user_id, sha, patch_id_sha) VALUES ($1, $2, $3, $4) ON CONFLICT (merge_request_id, user_id) DO NOTHING',
        [mergeRequestId, userId, sha, patchIdSha],
      );
      return rowCount > 0;
    },

    async deleteApproval(mergeRequestId: number, userId: number, tx?: Queryable): Promise<boolean> {
      const { rowCount } = await on(db, tx).query('DELETE FROM merge_request_approvals WHERE merge_request_id = $1 AND user_id = $2', [mergeRequestId, userId]);
      return rowCount > 0;
    },

    /** Removes the approvals of `userIds` (all when omitted); returns whose were removed. */
    async deleteApprovals(mergeRequestId: number, userIds?: number[], tx?: Queryable): Promise<number[]> {
      const { rows } = await on(db, tx).query<{ user_id: number }>(
        userIds === undefined
          ? 'DELETE FROM merge_request_approvals WHERE merge_request_id = $1 RETURNING user_id'
          : 'DELETE FROM merge_request_approvals WHERE merge_request_id = $1 AND user_id = ANY($2::bigint[]) RETURNING user_id',
        userIds === undefined ? [mergeRequestId] : [mergeRequestId, userIds],
      );
      return rows.map((row) => Number(row.user_id));
    },

    /** Keeps the approvals current with a push that left the diff identical. */
    async moveApprovals(mergeRequestId: number, sha: string, tx?: Queryable): Promise<void> {
      await on(db, tx).query('UPDATE merge_request_approvals SET sha = $2 WHERE merge_request_id = $1', [mergeRequestId, sha]);
    },

    /** Locks the merge request's row: approvals, unapprovals and resets of one request take turns. */
    async lockMergeRequest(mergeRequestId: number, tx: Queryable): Promise<void> {
      await tx.query('SELECT id FROM merge_requests WHERE id = $1 FOR UPDATE', [mergeRequestId]);
    },

    /**
     * Users who may approve in a project: active users whose effective access (ancestor groups,
     * the project, a personal namespace's owner) is at least Developer; among `among` when given.
     */
    async eligibleUserIds(project: { id: number; traversalIds: number[]; namespaceOwnerId: number | null }, among?: number[], tx?: Queryable): Promise<number[]> {
      const params: unknown[] = [project.traversalIds, project.id, project.namespaceOwnerId, AccessLevel.Developer];
      const filter = among === undefined ? '' : `AND c.user_id = ANY($${params.push(among)}::bigint[])`;
      const { rows } = await on(db, tx).query<{ user_id: number }>(
        `SELECT c.user_id FROM (
            SELECT user_id, access_level FROM group_members WHERE group_id = ANY($1::bigint[]) AND (expires_at IS NULL OR expires_at >= current_date)
            UNION ALL SELECT user_id, access_level FROM project_members WHERE project_id = $2 AND (expires_at IS NULL OR expires_at >= current_date)
            UNION ALL SELECT $3::bigint, ${AccessLevel.Owner} WHERE $3::bigint IS NOT NULL
          ) c JOIN users u ON u.id = c.user_id AND u.state = 'active'
          WHERE c.access_level >= $4 ${filter}
          GROUP BY c.user_id ORDER BY c.user_id`,
        params,
      );
      return rows.map((row) => Number(row.user_id));
    },

    /** Direct members of each group (GitLab's group approvers). */
    async groupMemberIds(groupIds: number[], tx?: Queryable): Promise<Map<number, number[]>> {
      const result = new Map<number, number[]>();
      if (groupIds.length === 0) return result;
      const { rows } = await on(db, tx).query<{ group_id: number; user_id: number }>(
        'SELECT group_id, user_id FROM group_members WHERE group_id = ANY($1::bigint[]) AND (expires_at IS NULL OR expires_at >= current_date) ORDER BY user_id',
        [groupIds],
      );
      for (const row of rows) result.set(Number(row.group_id), [...(result.get(Number(row.group_id)) ?? []), Number(row.user_id)]);
      return result;
    },

    /** Users whose email is one of `emails` (case-insensitive): a merge request's committers. */
    async userIdsByEmails(emails: string[], tx?: Queryable): Promise<number[]> {
      if (emails.length === 0) return [];
      const { rows } = await on(db, tx).query<{ id: number }>('SELECT id FROM users WHERE lower(email) = ANY($1::text[]) ORDER BY id', [emails.map((email) => email.toLowerCase())]);
      return rows.map((row) => Number(row.id));
    },

    /** Each reviewer's state (GitLab's merge_request_reviewers.state), per merge request. */
    async reviewerStates(mergeRequestIds: readonly number[], tx?: Queryable): Promise<Map<number, Array<{ user_id: number; state: ReviewerState; created_at: Date }>>> {
      const result = new Map<number, Array<{ user_id: number; state: ReviewerState; created_at: Date }>>();
      if (mergeRequestIds.length === 0) return result;
      const { rows } = await on(db, tx).query<{ merge_request_id: number; user_id: number; state: ReviewerState; created_at: Date }>(
        'SELECT merge_request_id, user_id, state, created_at FROM merge_request_reviewers WHERE merge_request_id = ANY($1::bigint[]) ORDER BY created_at, user_id',
        [mergeRequestIds],
      );
      for (const row of rows) {
        const id = Number(row.merge_request_id);
        result.set(id, [...(result.get(id) ?? []), { user_id: Number(row.user_id), state: row.state, created_at: row.created_at }]);
      }
      return result;
    },

    /** Sets a reviewer's state; false when the user is not a reviewer. */
    async setReviewerState(mergeRequestId: number, userId: number, state: ReviewerState, tx?: Queryable): Promise<boolean> {
      const { rowCount } = await on(db, tx).query('UPDATE merge_request_reviewers SET state = $3 WHERE merge_request_id = $1 AND user_id = $2', [mergeRequestId, userId, state]);
      return rowCount > 0;
    },

    /**
     * Which of these merge requests could need an approval at all: their project has a rule or
     * an approvals_before_merge, a protected branch requiring code owner approval (its CODEOWNERS
     * rules may block), or their own rules were edited. One query for a page of them.
     */
    async mayNeedApproval(mergeRequestIds: readonly number[], tx?: Queryable): Promise<Set<number>> {
      if (mergeRequestIds.length === 0) return new Set();
      const { rows } = await on(db, tx).query<{ id: number }>(
        `SELECT m.id FROM merge_requests m WHERE m.id = ANY($1::bigint[]) AND (
            EXISTS (SELECT 1 FROM approval_project_rules r WHERE r.project_id = m.target_project_id)
         OR EXISTS (SELECT 1 FROM approval_settings s WHERE s.project_id = m.target_project_id AND s.approvals_before_merge > 0)
         OR (m.approval_rules_overwritten AND EXISTS (SELECT 1 FROM approval_merge_request_rules r WHERE r.merge_request_id = m.id))
         OR EXISTS (SELECT 1 FROM protected_branches b WHERE b.project_id = m.target_project_id AND b.code_owner_approval_required))`,
        [mergeRequestIds],
      );
      return new Set(rows.map((row) => Number(row.id)));
    },

    /** The latest two versions of a merge request (newest first): what a push changed. */
    async latestVersions(mergeRequestId: number, tx?: Queryable): Promise<Array<{ id: number; base_commit_sha: string | null; start_commit_sha: string; head_commit_sha: string }>> {
      const { rows } = await on(db, tx).query<{ id: number; base_commit_sha: string | null; start_commit_sha: string; head_commit_sha: string }>(
        'SELECT id, base_commit_sha, start_commit_sha, head_commit_sha FROM merge_request_diffs WHERE merge_request_id = $1 ORDER BY id DESC LIMIT 2',
        [mergeRequestId],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
    },

    async eventAction(eventId: number, tx?: Queryable): Promise<string | null> {
      const { rows } = await on(db, tx).query<{ action: string }>('SELECT action FROM merge_request_events WHERE id = $1', [eventId]);
      return rows[0]?.action ?? null;
    },

    /** Usernames of `ids`, space-separated in their order (an event's from/to value). */
    async usernames(ids: number[], tx?: Queryable): Promise<string> {
      if (ids.length === 0) return '';
      const { rows } = await on(db, tx).query<{ id: number; username: string }>('SELECT id, username FROM users WHERE id = ANY($1::bigint[])', [ids]);
      const names = new Map(rows.map((row) => [Number(row.id), row.username]));
      return ids.map((id) => names.get(id)).filter((name): name is string => Boolean(name)).join(' ');
    },

    async passwordHash(userId: number): Promise<string | null> {
      const { rows } = await db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [userId]);
      return rows[0]?.password_hash ?? null;
    },

    async instanceSettings(tx?: Queryable): Promise<InstanceApprovalSettings> {
      const { rows } = await on(db, tx).query<InstanceApprovalSettings>(
        'SELECT prevent_merge_requests_author_approval, prevent_merge_requests_committers_approval, disable_overriding_approvers_per_merge_request FROM approval_instance_settings',
      );
      return rows[0] ?? { prevent_merge_requests_author_approval: false, prevent_merge_requests_committers_approval: false, disable_overriding_approvers_per_merge_request: false };
    },

    async updateInstanceSettings(changes: Partial<InstanceApprovalSettings>, tx?: Queryable): Promise<void> {
      const keys = (['prevent_merge_requests_author_approval', 'prevent_merge_requests_committers_approval', 'disable_overriding_approvers_per_merge_request'] as const).filter((key) => changes[key] !== undefined);
      if (keys.length === 0) return;
      await on(db, tx).query(`UPDATE approval_instance_settings SET ${keys.map((key, i) => `${key} = $${i + 1}`).join(', ')}`, keys.map((key) => changes[key]));
    },

    /** Stored settings of groups and one project (null columns: not chosen); missing rows are all-null. */
    async storedSettings(scope: { groupIds: number[]; projectId?: number }, tx?: Queryable): Promise<{ groups: Map<number, StoredApprovalSettings>; project: StoredApprovalSettings & { approvals_before_merge: number } }> {
      const { rows } = await on(db, tx).query<StoredApprovalSettings & { group_id: number | null; project_id: number | null; approvals_before_merge: number }>(
        `SELECT group_id, project_id, approvals_before_merge, ${APPROVAL_SETTING_KEYS.join(', ')} FROM approval_settings WHERE group_id = ANY($1::bigint[]) OR project_id = $2`,
        [scope.groupIds, scope.projectId ?? null],
      );
      const empty = Object.fromEntries(APPROVAL_SETTING_KEYS.map((key) => [key, null])) as StoredApprovalSettings;
      const groups = new Map<number, StoredApprovalSettings>();
      let project = { ...empty, approvals_before_merge: 0 };
      for (const row of rows) {
        const settings = Object.fromEntries(APPROVAL_SETTING_KEYS.map((key) => [key, row[key]])) as StoredApprovalSettings;
        if (row.group_id !== null) groups.set(Number(row.group_id), settings);
        else project = { ...settings, approvals_before_merge: row.approvals_before_merge };
      }
      return { groups, project };
    },

    async saveSettings(owner: { groupId: number } | { projectId: number }, changes: Partial<Record<ApprovalSettingKey, boolean>> & { approvals_before_merge?: number }, tx?: Queryable): Promise<void> {
      const keys = [...APPROVAL_SETTING_KEYS, 'approvals_before_merge' as const].filter((key) => changes[key] !== undefined);
      if (keys.length === 0) return;
      const column = 'groupId' in owner ? 'group_id' : 'project_id';
      const id = 'groupId' in owner ? owner.groupId : owner.projectId;
      await on(db, tx).query(
        `INSERT INTO approval_settings (${column}, ${keys.join(', ')}) VALUES ($1, ${keys.map((_, i) => `$${i + 2}`).join(', ')})
         ON CONFLICT (${column}) DO UPDATE SET ${keys.map((key) => `${key} = EXCLUDED.${key}`).join(', ')}`,
        [id, ...keys.map((key) => changes[key])],
      );
    },
  };
}

export type ApprovalsRepository = ReturnType<typeof createApprovalsRepository>;
