import { FEATURE_LEVEL_NAMES, featureField, LEGACY_FEATURE_BOOLEANS, PROJECT_FEATURES, type FeatureField, type LegacyFeatureBoolean } from '@tributary/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../../auth/actor.js';
import { NotFoundError } from '../../../platform/errors.js';
import type { Project } from '../../../domains/projects/project.js';
import type { ProjectListFilter } from '../../../domains/projects/projects.repository.js';
import { signedIn, type RestContext } from '../context.js';
import { projectBasic, projectFull } from '../entities/projects.js';
import { uploadedFile } from './uploads/multipart-files.js';
import { paginationHeaders, parsePage } from '../pagination.js';
import { Any, Bool, Enum, Input, Int, NamespacedRef, Nullable, Optional, Pagination, routes, Str, type Static } from '../input/route-kit.js';

const ORDER_BY = ['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at'] as const;

/** GitLab's project list parameters (GET /projects, a group's and a user's projects, forks). */
export const ProjectList = Input({
  ...Pagination,
  search: Optional(Str()),
  membership: Optional(Bool()),
  owned: Optional(Bool()),
  min_access_level: Optional(Int()),
  visibility: Optional(Enum(['private', 'internal', 'public'] as const)),
  archived: Optional(Bool()),
  order_by: Optional(Enum(ORDER_BY, { default: 'created_at' })),
  sort: Optional(Enum(['asc', 'desc'] as const, { default: 'desc' })),
  simple: Optional(Bool()),
});
export type ProjectListInput = Static<typeof ProjectList>;

export function projectListFilter(params: ProjectListInput): Omit<ProjectListFilter, 'userId' | 'isAdmin' | 'limit' | 'offset'> {
  return {
    search: params.search,
    membership: params.membership,
    owned: params.owned,
    minAccessLevel: params.min_access_level,
    visibility: params.visibility ?? '',
    archived: params.archived,
    orderBy: params.order_by ?? 'created_at',
    sort: params.sort ?? 'desc',
  };
}

/** A text setting: absent leaves it, `null` or `""` clears it (GitLab accepts both). */
const NullableText = () => Optional(Nullable(Str()));

/**
 * GitLab's project feature fields: each `*_access_level` is one of the level words, the legacy
 * `*_enabled` booleans and `public_jobs` (`public_builds`) are Booleans. Every level word is let
 * through here; which feature takes which level ('public' only for pages and the package
 * registry, nothing above the repository) is the domain's rule (`project-features.ts`).
 */
const FeatureLevel = () => Optional(Enum(FEATURE_LEVEL_NAMES));
const OptionalBool = () => Optional(Bool());
const ProjectFeatureInput = {
  ...(Object.fromEntries(PROJECT_FEATURES.map((feature) => [featureField(feature), FeatureLevel()])) as Record<FeatureField, ReturnType<typeof FeatureLevel>>),
  ...(Object.fromEntries(Object.keys(LEGACY_FEATURE_BOOLEANS).map((name) => [name, OptionalBool()])) as Record<LegacyFeatureBoolean, ReturnType<typeof OptionalBool>>),
  public_jobs: OptionalBool(),
  public_builds: OptionalBool(),
};

const hiddenAsNull = (error: unknown) => {
  if (error instanceof NotFoundError) return null;
  throw error;
};

/**
 * The full entity adds the caller's access level (memoised per request by the authorizer)
 * and the fork source, which GitLab shows only to those who may see it.
 */
export async function renderProject(ctx: RestContext<'projectAvatars' | 'projectTransfer' | 'projects'>, actor: Actor, project: Project) {
  const forkedFrom = project.forked_from_id === null ? null : await ctx.services.projects.find(actor, project.forked_from_id).catch(hiddenAsNull);
  return projectFull(project, ctx.urls, { accessLevel: await ctx.authorizer.accessLevel(actor, { project }), forkedFrom });
}

export async function listProjectsResponse(
  ctx: RestContext<'projectAvatars' | 'projectTransfer' | 'projects'>,
  request: FastifyRequest,
  reply: FastifyReply,
  params: ProjectListInput,
  filter: Omit<ProjectListFilter, 'userId' | 'isAdmin' | 'limit' | 'offset'>,
) {
  const page = parsePage(params);
  const result = await ctx.services.projects.list(request.actor, { ...filter, visibility: filter.visibility || undefined, limit: page.limit, offset: page.offset });
  reply.headers(paginationHeaders(new URL(request.url, ctx.externalUrl), page, result.total));
  if (params.simple) return result.projects.map((project) => projectBasic(project, ctx.urls));
  return Promise.all(result.projects.map((project) => renderProject(ctx, request.actor, project)));
}

const ProjectId = NamespacedRef();

export function projectRoutes(app: FastifyInstance, ctx: RestContext<'projectAvatars' | 'projectTransfer' | 'projects'>): void {
  const { projects } = ctx.services;
  const r = routes(app);

  r.get('/projects', ProjectList, async (params, request, reply) => listProjectsResponse(ctx, request, reply, params, projectListFilter(params)));

  r.post(
    '/projects',
    Input({
      name: Optional(Str()),
      path: Optional(Str()),
      namespace_id: Optional(Str({ description: 'ID or full path' })),
      description: Optional(Str()),
      visibility: Optional(Str()),
      default_branch: Optional(Str()),
      initialize_with_readme: Optional(Bool()),
      ...ProjectFeatureInput,
    }),
    async (params, request, reply) => {
      const actor = signedIn(request);
      const project = await projects.create(actor, params);
      return reply.status(201).send(await renderProject(ctx, actor, project));
    },
  );

  r.get('/projects/:id', Input({ id: ProjectId }), async ({ id }, request) => renderProject(ctx, request.actor, await projects.find(request.actor, id)));

  r.put(
    '/projects/:id',
    Input({
      id: ProjectId,
      name: Optional(Str()),
      path: Optional(Str()),
      description: Optional(Str()),
      visibility: Optional(Str()),
      default_branch: Optional(Str()),
      merge_method: Optional(Enum(['merge', 'rebase_merge', 'ff'] as const)),
      squash_option: Optional(Enum(['never', 'always', 'default_on', 'default_off'] as const)),
      only_allow_merge_if_pipeline_succeeds: Optional(Bool()),
      allow_merge_on_skipped_pipeline: Optional(Bool()),
      merge_pipelines_enabled: Optional(Bool()),
      merge_trains_enabled: Optional(Bool()),
      merge_trains_skip_train_allowed: Optional(Bool()),
      only_allow_merge_if_all_discussions_are_resolved: Optional(Bool()),
      resolve_outdated_diff_discussions: Optional(Bool()),
      remove_source_branch_after_merge: Optional(Bool()),
      merge_commit_template: NullableText(),
      squash_commit_template: NullableText(),
      merge_request_title_regex: NullableText(),
      merge_request_title_regex_description: NullableText(),
      avatar: Optional(Any({ description: 'image file (multipart)' })),
      ...ProjectFeatureInput,
    }),
    async ({ id, avatar: _avatar, ...changes }, request) => {
      const actor = signedIn(request);
      // GitLab's avatar: a multipart file field beside the other settings.
      const avatar = uploadedFile(request, 'avatar');
      if (avatar) await ctx.services.projectAvatars.set(actor, id, avatar);
      return renderProject(ctx, actor, await projects.update(actor, id, changes));
    },
  );

  // GitLab's archive calls: 201 with the project; an archived project is read-only (merges refused).
  for (const [action, archived] of [['archive', true], ['unarchive', false]] as const) {
    r.post(`/projects/:id/${action}`, Input({ id: ProjectId }), async ({ id }, request, reply) => {
      const actor = signedIn(request);
      const project = await projects.update(actor, id, { archived });
      return reply.status(201).send(await renderProject(ctx, actor, project));
    });
  }

  // GitLab's transfer: `namespace` is an id or a full path; 200 with the moved project.
  r.put('/projects/:id/transfer', Input({ id: ProjectId, namespace: Optional(Str({ description: 'ID or full path' })) }), async ({ id, namespace }, request) => {
    const actor = signedIn(request);
    return renderProject(ctx, actor, await ctx.services.projectTransfer.transfer(actor, id, namespace));
  });

  r.delete('/projects/:id', Input({ id: ProjectId }), async ({ id }, request, reply) => {
    await projects.remove(signedIn(request), id);
    return reply.status(202).send({ message: '202 Accepted' });
  });
}
