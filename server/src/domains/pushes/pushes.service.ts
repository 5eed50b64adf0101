import type { Database } from '../../platform/db/database.js';
import type { EventBus } from '../../platform/events.js';
import { NotFoundError } from '../../platform/errors.js';
import type { Authorizer } from '../../auth/authorizer.js';
import type { Actor } from '../../auth/actor.js';
import { setDefaultBranch } from '../../git/storage.js';
import { readRef } from '../../git/refs.js';
import type { ProjectsRepository } from '../projects/projects.repository.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import type { ProtectedTagsRepository } from '../protected-tags/protected-tags.repository.js';
import type { Collaboration } from '../merge-requests/collaboration.service.js';
import { checkPush } from './push-policy.js';
import { quarantineEnv, type PushRulesService } from '../push-rules/push-rules.service.js';
import { classifyRef, isDeletion, type RefUpdate } from './push.js';

/**
 * What happens around `git push`: the pre-receive decision (rules in
 * push-policy.ts) and, after git has moved the refs, the durable record of
 * the push (one push_events row per ref) and its domain event.
 */
export function createPushesService(deps: {
  db: Pick<Database, 'transaction'>;
  projects: Pick<ProjectsRepository, 'findById' | 'update' | 'recordPush'>;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject' | 'protectDefault'>;
  protectedTags: Pick<ProtectedTagsRepository, 'listForProject'>;
  storage: Pick<RepositoryStorage, 'pathFor' | 'isEmpty'>;
  authorizer: Authorizer;
  events: Pick<EventBus, 'publish'>;
  /** adds the branches a merge request allowing collaboration opens to non-members */
  collaboration?: Pick<Collaboration, 'pusher'>;
  /** the project's push rule (branch names, commits, files) */
  pushRules?: Pick<PushRulesService, 'check'>;
}) {
  return {
    /** null when the push may proceed, else the message git shows the pusher. */
    async preReceive(actor: Actor, projectId: number, updates: RefUpdate[], quarantine?: unknown): Promise<string | null> {
      const project = await deps.projects.findById(projectId);
      if (!project || !actor.user) throw new NotFoundError('Project');
      const accessLevel = await deps.authorizer.accessLevel(actor, { project });
      const [protections, tagProtections] = await Promise.all([deps.protectedBranches.listForProject(project.id), deps.protectedTags.listForProject(project.id)]);
      const archived = project.archived ? 'You are not allowed to push code to an archived project.' : null;
      if (archived) return archived;
      const pusher = deps.collaboration
        ? await deps.collaboration.pusher(actor, project, accessLevel)
        : { userId: actor.user.id, isAdmin: actor.user.is_admin, accessLevel };
      const refusal = checkPush(pusher, updates, protections, tagProtections, 'git');
      if (refusal || !deps.pushRules) return refusal;
      // The pushed objects are still in git's quarantine: the push rule reads them through the hook's variables.
      return deps.pushRules.check(actor, project, updates, { via: 'git', env: quarantineEnv(deps.storage.pathFor(project.id), quarantine) });
    },

    /** `options.pushOptions`: `git push -o` options (`ci.skip`), handed on to the pipelines with the event. */
    async postReceive(userId: number, projectId: number, updates: RefUpdate[], options: { pushOptions?: string[] } = {}): Promise<number[]> {
      const project = await deps.projects.findById(projectId);
      if (!project) return [];
      const repo = deps.storage.pathFor(projectId);
      // The first push to a project without its default branch makes the first pushed branch the default, as GitLab does.
      const defaultExists = (await readRef(repo, `refs/heads/${project.default_branch}`)) !== null;
      const firstBranch = updates.map((u) => ({ u, ref: classifyRef(u.ref) })).find(({ u, ref }) => ref.kind === 'branch' && !isDeletion(u))?.ref.name;
      const empty = await deps.storage.isEmpty(projectId);
      return deps.db.transaction(async (tx) => {
        const ids: number[] = [];
        for (const update of updates) {
          const { rows } = await tx.query<{ id: number }>(
            'INSERT INTO push_events (project_id, user_id, ref, old_sha, new_sha) VALUES ($1, $2, $3, $4, $5) RETURNING id',
            [projectId, userId, update.ref, update.oldSha, update.newSha],
          );
          ids.push(rows[0]!.id);
        }
        if (!defaultExists && firstBranch) {
          await deps.projects.update(projectId, { default_branch: firstBranch }, tx);
          const protections = await deps.protectedBranches.listForProject(projectId, tx);
          if (!protections.some((p) => p.name === firstBranch)) await deps.protectedBranches.protectDefault(projectId, firstBranch, tx);
          await setDefaultBranch(repo, firstBranch);
        }
        await deps.projects.recordPush(projectId, empty, tx);
        await deps.events.publish(
          'repository.pushed',
          {
            projectId,
            userId,
            pushEventIds: ids,
            refs: updates.map(({ ref, oldSha, newSha }) => ({ ref, oldSha, newSha })),
            ...(options.pushOptions && options.pushOptions.length > 0 ? { pushOptions: options.pushOptions } : {}),
          },
          tx,
        );
        return ids;
      });
    },
  };
}

export type PushesService = ReturnType<typeof createPushesService>;
