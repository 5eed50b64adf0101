import type { FastifyInstance } from 'fastify';
import { actorFor } from '../../auth/actor.js';
import type { App } from '../../app.js';
import type { RefUpdate } from '../../domains/pushes/push.js';
import { ForbiddenError, ValidationError } from '../../platform/errors.js';
import type { HookSessions } from './hook-sessions.js';

const SHA = /^[0-9a-f]{40}$|^[0-9a-f]{64}$/;

/** Validates the ref updates a hook reports (git wrote them, but the socket is an interface). Pure. */
export function parseRefUpdates(body: unknown): RefUpdate[] {
  const updates = (body as { updates?: unknown })?.updates;
  if (!Array.isArray(updates) || updates.length === 0 || updates.length > 10_000) throw new ValidationError('updates are required');
  return updates.map((raw) => {
    const update = raw as Record<string, unknown>;
    if (typeof update.ref !== 'string' || typeof update.oldSha !== 'string' || typeof update.newSha !== 'string') throw new ValidationError('bad update');
    if (!SHA.test(update.oldSha) || !SHA.test(update.newSha) || !update.ref.startsWith('refs/')) throw new ValidationError('bad update');
    return { ref: update.ref, oldSha: update.oldSha, newSha: update.newSha, forced: update.forced === true };
  });
}

/** The push options a hook reports (`git push -o …`): strings only, at most 100 of 1000 characters. Pure. */
export function parsePushOptions(body: unknown): string[] {
  const options = (body as { pushOptions?: unknown })?.pushOptions;
  if (!Array.isArray(options)) return [];
  return options.filter((option): option is string => typeof option === 'string' && option.length <= 1000).slice(0, 100);
}

/**
 * The admin-socket routes git's hooks call during a push received over
 * HTTP. The hook key (hook-sessions.ts) names the pusher and the project.
 */
export function hookRoutes(hookSessions: HookSessions) {
  return function register(admin: FastifyInstance, app: App): void {
    admin.post('/hooks/pre-receive', async (request) => {
      const session = hookSessions.find((request.body as { key?: unknown })?.key);
      if (!session) throw new ForbiddenError('unknown hook key');
      const user = await app.services.usersRepository.findById(session.userId);
      if (!user) return { allowed: false, message: 'Your account is no longer active.' };
      const body = request.body as { quarantine?: unknown };
      const message = await app.services.pushes.preReceive(actorFor(user, 'session'), session.projectId, parseRefUpdates(request.body), body.quarantine);
      return message ? { allowed: false, message } : { allowed: true };
    });

    admin.post('/hooks/post-receive', async (request) => {
      const session = hookSessions.find((request.body as { key?: unknown })?.key);
      if (!session) throw new ForbiddenError('unknown hook key');
      const ids = await app.services.pushes.postReceive(session.userId, session.projectId, parseRefUpdates(request.body), {
        pushOptions: parsePushOptions(request.body),
      });
      return { recorded: ids.length, messages: session.messages ?? [] };
    });
  };
}
