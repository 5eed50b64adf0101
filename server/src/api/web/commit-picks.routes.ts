import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../auth/actor.js';
import { assertApiScope } from '../../auth/authorizer.js';
import type { PickIntoNewBranchService } from '../../domains/repository/commit-picks-into.service.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';

/**
 * `POST /-/projects/:id/commits/:sha/revert` and `…/cherry_pick` with `target_branch`: the merge
 * widget's Revert / Cherry-pick into a new branch and merge request, made in the caller's fork
 * when they cannot push (GitLab does this in its web controller, Projects::CommitController,
 * not in REST v4). Answers 201 with the new merge request and GitLab's fork notice, if any.
 */
export function commitPickRoutes(app: FastifyInstance, deps: { authenticate(request: FastifyRequest): Promise<Actor>; picks: PickIntoNewBranchService; externalUrl: string }): void {
  app.addHook('onRequest', async (request) => {
    request.actor = await deps.authenticate(request);
    assertApiScope(request.actor, request.method);
  });

  async function pick(request: FastifyRequest, reply: FastifyReply, mode: 'revert' | 'cherry-pick') {
    const params = request.params as { id: string; sha: string };
    const body = (request.body ?? {}) as { target_branch?: unknown };
    if (!/^[0-9a-f]{40}$/.test(params.sha)) throw new NotFoundError('Commit');
    if (typeof body.target_branch !== 'string' || body.target_branch === '') throw new ValidationError('target_branch is missing');
    const { opened, into, notice } = await deps.picks.apply(request.actor, params.id, { mode, sha: params.sha, targetBranch: body.target_branch });
    const { mergeRequest, project } = opened;
    return reply.status(201).send({
      merge_request: {
        id: mergeRequest.id,
        iid: mergeRequest.iid,
        project_id: project.id,
        source_project_id: into.id,
        source_branch: mergeRequest.source_branch,
        target_branch: mergeRequest.target_branch,
        title: mergeRequest.title,
        web_url: `${deps.externalUrl}/${project.full_path}/-/merge_requests/${mergeRequest.iid}`,
      },
      notice,
    });
  }

  app.post('/-/projects/:id/commits/:sha/revert', (request, reply) => pick(request, reply, 'revert'));
  app.post('/-/projects/:id/commits/:sha/cherry_pick', (request, reply) => pick(request, reply, 'cherry-pick'));
}
