import { featureField, LEGACY_FEATURE_BOOLEANS, PROJECT_FEATURES } from '@tributary/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../../auth/actor.js';
import { NotFoundError } from '../../../platform/errors.js';
import type { Project } from '../../../domains/projects/project.js';
import type { ProjectListFilter } from '../../../domains/projects/projects.repository.js';
import { input, pathParam, signedIn, type RestContext } from '../context.js';
import { projectBasic, projectFull } from '../entities/projects.js';
import { uploadedFile } from './uploads/multipart-files.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { oneOf, optionalBool, optionalInt, optionalString, type Params } from '../params.js';

const ORDER_BY = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'] as const;

export function projectListFilter(params: Params): Omit<ProjectListFilter, 'userId' | 'isAdmin' | 'limit' | 'offset'> {
  return {
    search: optionalString(params, 'search'),
    membership: optionalBool(params, 'membership'),
    owned: optionalBool(params, 'owned'),
    minAccessLevel: optionalInt(params, 'min_access_level'),
    visibility: oneOf(params, 'visibility', ['private', 'internal', 'public', ''] as const, ''),
    archived: optionalBool(params, 'archived'),
    orderBy: oneOf(params, 'order_by', ORDER_BY, 'created_at'),
    sort: oneOf(params, 'sort', ['asc', 'desc'] as const, 'desc'),
  };
}

/** A text setting: absent leaves it, `null` or `""` clears it (GitLab accepts both). */
const nullableString = (params: Params, key: string): string | null | undefined => (params[key] === null ? null : optionalString(params, key));

/** The feature fields as sent (levels, legacy booleans, public_jobs): the service validates them. */
function featureParams(params: Params): Record<string, unknown> {
  const names = [...PROJECT_FEATURES.map(featureField), ...Object.keys(LEGACY_FEATURE_BOOLEANS), 'public_jobs', 'public_builds'];
  return Object.fromEntries(names.filter((name) => params[name] !== undefined).map((name) => [name, params[name]]));
}

const hiddenAsNull = (error: unknown) => {
  if (error instanceof NotFoundError) return null;
  throw error;
};

/**
 * The full entity adds the caller's access level (memoised per request by the authorizer)
 * and the fork source, which GitLab shows only to those who may see it.
 */
export async function renderProject(ctx: RestContext, actor: Actor, project: Project) {
  const forkedFrom = project.forked_from_id === null ? null : await ctx.services.projects.find(actor, project.forked_from_id).catch(hiddenAsNull);
  return projectFull(project, ctx.urls, { accessLevel: await ctx.authorizer.accessLevel(actor, { project }), forkedFrom });
}

export async function listProjectsResponse(
  ctx: RestContext,
  request: FastifyRequest,
  reply: FastifyReply,
  filter: Omit<ProjectListFilter, 'userId' | 'isAdmin' | 'limit' | 'offset'>,
) {
  const params = input(request);
  const page = parsePage(params);
  const result = await ctx.services.projects.list(request.actor, { ...filter, visibility: filter.visibility || undefined, limit: page.limit, offset: page.offset });
  reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
  if (optionalBool(params, 'simple')) return result.projects.map((project) => projectBasic(project, ctx.urls));
  return Promise.all(result.projects.map((project) => renderProject(ctx, request.actor, project)));
}

export function projectRoutes(app: FastifyInstance, ctx: RestContext): void {
  const { projects } = ctx.services;

  app.get('/projects', async (request, reply) => listProjectsResponse(ctx, request, reply, projectListFilter(input(request))));

  app.post('/projects', async (request, reply) => {
    const params = input(request);
    const actor = signedIn(request);
    const project = await projects.create(actor, {
      name: optionalString(params, 'name'),
      path: optionalString(params, 'path'),
      namespace_id: optionalString(params, 'namespace_id'),
      description: optionalString(params, 'description'),
      visibility: optionalString(params, 'visibility'),
      default_branch: optionalString(params, 'default_branch'),
      initialize_with_readme: optionalBool(params, 'initialize_with_readme'),
      ...featureParams(params),
    });
    return reply.status(201).send(await renderProject(ctx, actor, project));
  });

  app.get('/projects/:id', async (request) => renderProject(ctx, request.actor, await projects.find(request.actor, pathParam(request, 'id'))));

  app.put('/projects/:id', async (request) => {
    const params = input(request);
    const actor = signedIn(request);
    // GitLab's avatar: a multipart file field beside the other settings.
    const avatar = uploadedFile(request, 'avatar');
    if (avatar) await ctx.services.projectAvatars.set(actor, pathParam(request, 'id'), avatar);
    const project = await projects.update(actor, pathParam(request, 'id'), {
      name: optionalString(params, 'name'),
      path: optionalString(params, 'path'),
      description: optionalString(params, 'description'),
      visibility: optionalString(params, 'visibility'),
      default_branch: optionalString(params, 'default_branch'),
      merge_method: params.merge_method === undefined ? undefined : oneOf(params, 'merge_method', ['merge', 'rebase_merge', 'ff'] as const, 'merge'),
      squash_option:
        params.squash_option === undefined ? undefined : oneOf(params, 'squash_option', ['never', 'always', 'default_on', 'default_off'] as const, 'default_off'),
      only_allow_merge_if_pipeline_succeeds: optionalBool(params, 'only_allow_merge_if_pipeline_succeeds'),
      only_allow_merge_if_all_discussions_are_resolved: optionalBool(params, 'only_allow_merge_if_all_discussions_are_resolved'),
      resolve_outdated_diff_discussions: optionalBool(params, 'resolve_outdated_diff_discussions'),
      remove_source_branch_after_merge: optionalBool(params, 'remove_source_branch_after_merge'),
      merge_commit_template: nullableString(params, 'merge_commit_template'),
      squash_commit_template: nullableString(params, 'squash_commit_template'),
      merge_request_title_regex: nullableString(params, 'merge_request_title_regex'),
      merge_request_title_regex_description: nullableString(params, 'merge_request_title_regex_description'),
      ...featureParams(params),
    });
    return renderProject(ctx, actor, project);
  });

  // GitLab's archive calls: 201 with the project; an archived project is read-only (merges refused).
  for (const [action, archived] of [['archive', true], ['unarchive', false]] as const) {
    app.post(`/projects/:id/${action}`, async (request, reply) => {
      const actor = signedIn(request);
      const project = await projects.update(actor, pathParam(request, 'id'), { archived });
      return reply.status(201).send(await renderProject(ctx, actor, project));
    });
  }

  // GitLab's transfer: `namespace` is an id or a full path; 200 with the moved project.
  app.put('/projects/:id/transfer', async (request) => {
    const actor = signedIn(request);
    const namespace = input(request).namespace;
    const moved = await ctx.services.projectTransfer.transfer(actor, pathParam(request, 'id'), namespace === undefined || namespace === null ? undefined : String(namespace));
    return renderProject(ctx, actor, moved);
  });

  app.delete('/projects/:id', async (request, reply) => {
    await projects.remove(signedIn(request), pathParam(request, 'id'));
    return reply.status(202).send({ message: '202 Accepted' });
  });
}
