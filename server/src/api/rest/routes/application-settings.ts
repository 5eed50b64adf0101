import type { FastifyInstance } from 'fastify';
import type { ApplicationSettings } from '../../../domains/application-settings/application-settings.repository.js';
import { signedIn, type RestContext } from '../context.js';
import { ValidationError } from '../../../platform/errors.js';
import { Any, Bool, Input, Int, Optional, routes } from '../input/route-kit.js';

/** GitLab's ApplicationSetting entity, the settings Tributary has so far. */
function settingsEntity(settings: ApplicationSettings) {
  return {
    allow_runner_registration_token: settings.allow_runner_registration_token,
    runner_token_expiration_interval: settings.runner_token_expiration_interval,
    group_runner_token_expiration_interval: settings.group_runner_token_expiration_interval,
    project_runner_token_expiration_interval: settings.project_runner_token_expiration_interval,
    max_artifacts_size: settings.max_artifacts_size,
  };
}

/**
 * GET and PUT /application/settings (doc/api/settings.md): administrators only; an interval is
 * cleared with an empty value. The CI settings live in application_settings, the instance's
 * approval restrictions (GitLab's settings of the same names) in the approvals domain; one
 * answer carries both.
 */
export function applicationSettingsRoutes(app: FastifyInstance, ctx: RestContext<'applicationSettings' | 'approvalSettings'>): void {
  const r = routes(app);
  const { applicationSettings, approvalSettings } = ctx.services;
  r.get('/application/settings', Input({}), async (_params, request) => ({
    ...settingsEntity(await applicationSettings.show(request.actor)),
    ...(await approvalSettings.instance(request.actor)),
  }));
  const interval = () => Optional(Any({ description: 'seconds; empty or null for no expiry' }));
  r.put(
    '/application/settings',
    Input({
      allow_runner_registration_token: Optional(Bool()),
      runner_token_expiration_interval: interval(),
      group_runner_token_expiration_interval: interval(),
      project_runner_token_expiration_interval: interval(),
      max_artifacts_size: Optional(Int({ description: 'the largest artifact accepted, in MB' })),
      prevent_merge_requests_author_approval: Optional(Bool()),
      prevent_merge_requests_committers_approval: Optional(Bool()),
      disable_overriding_approvers_per_merge_request: Optional(Bool()),
    }),
    async (params, request) => {
      // An interval sent empty (or null) clears it: tokens of that runner type stop expiring.
      const sent = { ...((request.query ?? {}) as Record<string, unknown>), ...((request.body ?? {}) as Record<string, unknown>) };
      const pick = (name: 'runner_token_expiration_interval' | 'group_runner_token_expiration_interval' | 'project_runner_token_expiration_interval') => {
        // the input reader drops a JSON null: look at what was sent
        const value = name in sent && sent[name] === null ? null : params[name];
        if (value === undefined) return undefined;
        if (value === null || value === '') return null;
        const seconds = Number(value);
        if (!Number.isSafeInteger(seconds)) throw new ValidationError(`400 (Bad request) "${name}" is invalid`);
        return seconds;
      };
      const ci = {
        allow_runner_registration_token: params.allow_runner_registration_token,
        runner_token_expiration_interval: pick('runner_token_expiration_interval'),
        group_runner_token_expiration_interval: pick('group_runner_token_expiration_interval'),
        project_runner_token_expiration_interval: pick('project_runner_token_expiration_interval'),
        max_artifacts_size: params.max_artifacts_size,
      };
      const settings = settingsEntity(await applicationSettings.update(signedIn(request), ci));
      const approvals = await approvalSettings.updateInstance(request.actor, {
        prevent_merge_requests_author_approval: params.prevent_merge_requests_author_approval,
        prevent_merge_requests_committers_approval: params.prevent_merge_requests_committers_approval,
        disable_overriding_approvers_per_merge_request: params.disable_overriding_approvers_per_merge_request,
      });
      return { ...settings, ...approvals };
    },
  );
}
