import type { Actor } from '../../auth/actor.js';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import type { ApplicationSettings, ApplicationSettingsRepository, ApplicationSettingsUpdate } from './application-settings.repository.js';

/** What PUT /application/settings takes: each setting optional; an interval may be cleared with null. */
export interface ApplicationSettingsInput {
  allow_runner_registration_token?: boolean;
  runner_token_expiration_interval?: number | null;
  group_runner_token_expiration_interval?: number | null;
  project_runner_token_expiration_interval?: number | null;
  max_artifacts_size?: number;
}

const INTERVALS = ['runner_token_expiration_interval', 'group_runner_token_expiration_interval', 'project_runner_token_expiration_interval'] as const;

/**
 * The checks of the settings, pure: token lifetimes are whole seconds above zero (or null: no
 * expiry), the artifact limit whole megabytes above zero. Throws GitLab's `{field: [errors]}`.
 */
export function validateApplicationSettings(input: ApplicationSettingsInput): ApplicationSettingsUpdate {
  const changes: ApplicationSettingsUpdate = {};
  if (input.allow_runner_registration_token !== undefined) changes.allow_runner_registration_token = input.allow_runner_registration_token;
  for (const field of INTERVALS) {
    const value = input[field];
    if (value === undefined) continue;
    if (value !== null && (!Number.isSafeInteger(value) || value <= 0 || value > 2_147_483_647)) throw ValidationError.field(field, 'must be greater than 0');
    changes[field] = value;
  }
  if (input.max_artifacts_size !== undefined) {
    if (!Number.isSafeInteger(input.max_artifacts_size) || input.max_artifacts_size <= 0 || input.max_artifacts_size > 2_147_483_647) {
      throw ValidationError.field('max_artifacts_size', 'must be greater than 0');
    }
    changes.max_artifacts_size = input.max_artifacts_size;
  }
  return changes;
}

/** GET and PUT /application/settings (GitLab's API::Settings): administrators only. */
export function createApplicationSettingsService(deps: { settings: ApplicationSettingsRepository }) {
  function requireAdmin(actor: Actor): void {
    if (!actor.user) throw new UnauthorizedError();
    if (!actor.user.is_admin) throw new ForbiddenError();
  }

  async function current(): Promise<ApplicationSettings> {
    const { runners_registration_token_digest: _digest, ...settings } = await deps.settings.get();
    return settings;
  }

  return {
    /** The settings for the server's own rules (no caller check). */
    current,
    async show(actor: Actor): Promise<ApplicationSettings> {
      requireAdmin(actor);
      return current();
    },
    async update(actor: Actor, input: ApplicationSettingsInput): Promise<ApplicationSettings> {
      requireAdmin(actor);
      await deps.settings.update(validateApplicationSettings(input));
      return current();
    },
  };
}

export type ApplicationSettingsService = ReturnType<typeof createApplicationSettingsService>;
