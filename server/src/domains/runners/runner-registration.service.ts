/**
 * GitLab's legacy runner registration (deprecated since GitLab 15.6, off by default since 17.0):
 * `gitlab-runner register --registration-token …` calls POST /runners with the instance's, a
 * group's or a project's registration token, and gets a runner of that scope. The tokens are
 * reset (made) by administrators, a group's Owners and a project's Maintainers, shown once, and
 * stored as digests. Whether the tokens may create runners is the instance setting
 * `allow_runner_registration_token`.
 */
import type { Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { digest, generateOpaqueSecret, safeEqual } from '../../auth/secrets.js';
import type { Database } from '../../platform/db/database.js';
import { ForbiddenError, GoneError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import type { ApplicationSettingsRepository } from '../application-settings/application-settings.repository.js';
import type { GroupsService } from '../namespaces/groups.service.js';
import type { ProjectsService } from '../projects/projects.service.js';
import { tokenExpiresAt, validateRunnerSettings, type RunnerSettingsInput } from './runner-rules.js';
import { REGISTRATION_TOKEN_PREFIX, type Runner, type RunnerType } from './runner.js';
import type { RunnersRepository } from './runners.repository.js';
import { newRunnerToken } from './runners.service.js';

/** A registration token as GitLab makes them: its prefix and 20 random bytes. */
function newRegistrationToken(): { token: string; digest: string } {
  const token = REGISTRATION_TOKEN_PREFIX + generateOpaqueSecret(20);
  return { token, digest: digest(token) };
}

/** What a registration token decides: the runner's type and owner. */
type RegistrationScope = { runnerType: 'instance_type' } | { runnerType: 'group_type'; groupId: number } | { runnerType: 'project_type'; projectId: number };

export function createRunnerRegistration(deps: {
  db: Pick<Database, 'transaction'>;
  runners: Pick<RunnersRepository, 'insert' | 'findById' | 'findRegistrationScope' | 'setRegistrationTokenDigest'>;
  settings: Pick<ApplicationSettingsRepository, 'get' | 'setRunnersRegistrationTokenDigest'>;
  projects: Pick<ProjectsService, 'find'>;
  groups: Pick<GroupsService, 'find'>;
  authorizer: Pick<Authorizer, 'can'>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function scopeOf(token: string, instanceDigest: string | null): Promise<RegistrationScope | null> {
    const presented = digest(token);
    if (instanceDigest !== null && safeEqual(instanceDigest, presented)) return { runnerType: 'instance_type' };
    const found = await deps.runners.findRegistrationScope(presented);
    if (!found || !safeEqual(found.digest, presented)) return null;
    return found.kind === 'project' ? { runnerType: 'project_type', projectId: found.id } : { runnerType: 'group_type', groupId: found.id };
  }

  return {
    /**
     * POST /runners (GitLab's RegisterRunnerService): with registration tokens disallowed, any
     * token is GitLab's 410 "runner registration disallowed"; an unknown or empty one is 403
     * "invalid token supplied". The runner gets a `glrtr-` token, expiring per the settings.
     */
    async register(token: string | undefined, input: RunnerSettingsInput & { active?: boolean }): Promise<{ runner: Runner; token: string }> {
      if (token === undefined) throw ValidationError.missing('token');
      const settings = await deps.settings.get();
      const scope = token === '' ? null : await scopeOf(token, settings.runners_registration_token_digest);
      if (token !== '' && !settings.allow_runner_registration_token) throw new GoneError('410 Gone - runner registration disallowed');
      if (!scope) throw new ForbiddenError('403 Forbidden - invalid token supplied');
      const { active, ...rest } = input;
      const runnerSettings = validateRunnerSettings(active === undefined ? rest : { ...rest, paused: !active });
      const runnerType: RunnerType = scope.runnerType;
      const issued = newRunnerToken('registration_token');
      const id = await deps.db.transaction((tx) =>
        deps.runners.insert(
          {
            runnerType,
            groupId: scope.runnerType === 'group_type' ? scope.groupId : null,
            projectId: scope.runnerType === 'project_type' ? scope.projectId : null,
            settings: runnerSettings,
            tokenDigest: issued.digest,
            tokenShort: issued.short,
            tokenExpiresAt: tokenExpiresAt(runnerType, settings, now()),
            createdById: null,
            registrationType: 'registration_token',
          },
          tx,
        ),
      );
      return { runner: (await deps.runners.findById(id))!, token: issued.token };
    },

    /** POST /runners/reset_registration_token: administrators; the instance's token. */
    async resetInstanceToken(actor: Actor): Promise<{ token: string }> {
      if (!actor.user) throw new UnauthorizedError();
      if (!actor.user.is_admin) throw new ForbiddenError();
      const issued = newRegistrationToken();
      await deps.settings.setRunnersRegistrationTokenDigest(issued.digest);
      return { token: issued.token };
    },

    /** POST /projects/:id/runners/reset_registration_token: the project's Maintainers (GitLab's update_runners_registration_token). */
    async resetProjectToken(actor: Actor, projectIdOrPath: string): Promise<{ token: string }> {
      const project = await deps.projects.find(actor, projectIdOrPath);
      if (!(await deps.authorizer.can(actor, 'admin_runners', { project }))) throw new ForbiddenError();
      const issued = newRegistrationToken();
      await deps.runners.setRegistrationTokenDigest({ kind: 'project', id: project.id }, issued.digest);
      return { token: issued.token };
    },

    /** POST /groups/:id/runners/reset_registration_token: the group's Owners. */
    async resetGroupToken(actor: Actor, groupIdOrPath: string): Promise<{ token: string }> {
      const group = await deps.groups.find(actor, groupIdOrPath);
      if (!(await deps.authorizer.can(actor, 'admin_runners', { group }))) throw new ForbiddenError();
      const issued = newRegistrationToken();
      await deps.runners.setRegistrationTokenDigest({ kind: 'group', id: group.id }, issued.digest);
      return { token: issued.token };
    },
  };
}

export type RunnerRegistration = ReturnType<typeof createRunnerRegistration>;
