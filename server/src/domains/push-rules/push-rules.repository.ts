import { on, type Queryable } from '../../platform/db/database.js';
import { PUSH_RULE_FIELDS, type PushRule, type PushRuleSettings } from './push-rule.js';

const COLUMNS = `id, project_id, ${PUSH_RULE_FIELDS.join(', ')}, created_at`;

export function createPushRulesRepository(db: Queryable) {
  const repository = {
    async findForProject(projectId: number, tx?: Queryable): Promise<PushRule | undefined> {
      const { rows } = await on(db, tx).query<PushRule>(`SELECT ${COLUMNS} FROM push_rules WHERE project_id = $1`, [projectId], { name: 'push_rules.for_project' });
      return rows[0];
    },
    /** Creates the project's rule; undefined when it already has one (GitLab's "exists"). */
    async insert(projectId: number, settings: PushRuleSettings, tx?: Queryable): Promise<PushRule | undefined> {
      const entries = Object.entries(settings);
      // Column names come from PUSH_RULE_FIELDS (push-rule-settings.ts builds `settings` from it), never from the request.
      const { rows } = await on(db, tx).query<PushRule>(
        `INSERT INTO push_rules (project_id${entries.map(([column]) => `, ${column}`).join('')})
         VALUES ($1${entries.map((_, index) => `, $${index + 2}`).join('')})
         ON CONFLICT (project_id) DO NOTHING RETURNING ${COLUMNS}`,
        [projectId, ...entries.map(([, value]) => value)],
      );
      return rows[0];
    },
    async update(projectId: number, settings: PushRuleSettings, tx?: Queryable): Promise<PushRule | undefined> {
      const entries = Object.entries(settings);
      if (entries.length === 0) return repository.findForProject(projectId, tx);
      const { rows } = await on(db, tx).query<PushRule>(
        `UPDATE push_rules SET ${entries.map(([column], index) => `${column} = $${index + 2}`).join(', ')} WHERE project_id = $1 RETURNING ${COLUMNS}`,
        [projectId, ...entries.map(([, value]) => value)],
      );
      return rows[0];
    },
    async remove(projectId: number, tx?: Queryable): Promise<boolean> {
      const { rows } = await on(db, tx).query('DELETE FROM push_rules WHERE project_id = $1 RETURNING id', [projectId]);
      return rows.length > 0;
    },
    /** Which of these emails belong to a user of this instance (GitLab's member_check: User.existing_member?), lower-cased. */
    async knownEmails(emails: readonly string[]): Promise<Set<string>> {
      if (emails.length === 0) return new Set();
      const { rows } = await db.query<{ email: string }>('SELECT lower(email) AS email FROM users WHERE lower(email) = ANY($1)', [emails.map((email) => email.toLowerCase())]);
      return new Set(rows.map((row) => row.email));
    },
  };
  return repository;
}

export type PushRulesRepository = ReturnType<typeof createPushRulesRepository>;
