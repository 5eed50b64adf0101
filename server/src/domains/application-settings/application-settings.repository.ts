import type { Queryable } from '../../platform/db/database.js';

/** The instance's settings (GitLab's application_settings, one row): the CI ones that exist so far. */
export interface ApplicationSettings {
  allow_runner_registration_token: boolean;
  runner_token_expiration_interval: number | null;
  group_runner_token_expiration_interval: number | null;
  project_runner_token_expiration_interval: number | null;
  /** the largest artifact accepted, in MB (GitLab's max_artifacts_size, default 100) */
  max_artifacts_size: number;
}

export type ApplicationSettingsUpdate = Partial<ApplicationSettings>;

const COLUMNS = ['allow_runner_registration_token', 'runner_token_expiration_interval', 'group_runner_token_expiration_interval', 'project_runner_token_expiration_interval', 'max_artifacts_size'] as const;

/** The SQL of the instance settings row. */
export function createApplicationSettingsRepository(db: Queryable) {
  return {
    async get(): Promise<ApplicationSettings & { runners_registration_token_digest: string | null }> {
      const { rows } = await db.query<ApplicationSettings & { runners_registration_token_digest: string | null }>(
        `SELECT ${COLUMNS.join(', ')}, runners_registration_token_digest FROM application_settings WHERE id = 1`,
        [],
        { name: 'application_settings.get' },
      );
      return rows[0]!;
    },
    async update(changes: ApplicationSettingsUpdate): Promise<void> {
      const params: unknown[] = [];
      const sets: string[] = [];
      for (const column of COLUMNS) {
        if (!(column in changes)) continue;
        params.push(changes[column]);
        sets.push(`${column} = $${params.length}`);
      }
      if (sets.length === 0) return;
      await db.query(`UPDATE application_settings SET ${sets.join(', ')}, updated_at = now() WHERE id = 1`, params);
    },
    async setRunnersRegistrationTokenDigest(digest: string): Promise<void> {
      await db.query('UPDATE application_settings SET runners_registration_token_digest = $1, updated_at = now() WHERE id = 1', [digest]);
    },
  };
}

export type ApplicationSettingsRepository = ReturnType<typeof createApplicationSettingsRepository>;
