import { AccessLevel } from '@tributary/contracts';
import { ForbiddenError, InsufficientScopeError, NotFoundError } from '../platform/errors.js';
import type { MembersRepository } from '../domains/members/members.repository.js';
import type { Namespace } from '../domains/namespaces/namespace.js';
import type { Project } from '../domains/projects/project.js';
import type { Actor, TokenScope } from './actor.js';
import { canRead, groupAbilities, projectAbilities, type GroupAction, type ProjectAction, type SubjectContext } from './permissions.js';

export type Subject = { project: Project } | { group: Namespace };
export type Action = ProjectAction | GroupAction;

/**
 * The one permission function every surface asks: REST routes, git smart
 * HTTP, the web app (through REST) and, later, GraphQL. It loads the
 * caller's effective access level once per request and applies the pure
 * rules of permissions.ts.
 */
export function createAuthorizer(deps: {
  members: Pick<MembersRepository, 'effectiveAccessLevel'>;
  /** GitLab's job token inbound allowlist: may the job tokens of `sourceProjectId` reach `projectId`? (none when absent) */
  jobTokenAllowlist?: { allows(projectId: number, sourceProjectId: number): Promise<boolean> };
}) {
  const cacheKey = (subject: Subject) => ('project' in subject ? `p${subject.project.id}` : `g${subject.group.id}`);

  async function accessLevel(actor: Actor, subject: Subject): Promise<number> {
    const user = actor.user;
    if (!user) return 0;
    const key = cacheKey(subject);
    const cached = actor.accessCache?.get(key);
    if (cached !== undefined) return cached;
    let level: number;
    if ('project' in subject) {
      const p = subject.project;
      level = await deps.members.effectiveAccessLevel(user.id, {
        kind: 'project',
        id: p.id,
        traversalIds: p.namespace_kind === 'group' ? p.namespace_traversal_ids : [],
        namespaceOwnerId: p.namespace_owner_id,
      });
    } else if (subject.group.kind === 'user') {
      level = subject.group.owner_id === user.id ? AccessLevel.Owner : AccessLevel.NoAccess;
    } else {
      level = await deps.members.effectiveAccessLevel(user.id, { kind: 'group', id: subject.group.id, traversalIds: subject.group.traversal_ids });
    }
    actor.accessCache?.set(key, level);
    return level;
  }

  /**
   * GitLab's job-token scope: a job token acts as its job's user in the job's own project and in
   * projects whose inbound allowlist names the job's project; anywhere else it is an anonymous caller.
   */
  async function outsideJobTokenScope(actor: Actor, subject: Subject): Promise<boolean> {
    if (actor.jobProjectId === undefined) return false;
    if (!('project' in subject)) return true;
    if (subject.project.id === actor.jobProjectId) return false;
    const key = `scope:${subject.project.id}`;
    const cached = actor.accessCache?.get(key);
    if (cached !== undefined) return cached === 0;
    const allowed = (await deps.jobTokenAllowlist?.allows(subject.project.id, actor.jobProjectId)) ?? false;
    actor.accessCache?.set(key, allowed ? 1 : 0);
    return !allowed;
  }

  async function context(actor: Actor, subject: Subject): Promise<SubjectContext> {
    const outsideJobScope = await outsideJobTokenScope(actor, subject);
    const isAdmin = actor.user?.is_admin === true && !outsideJobScope;
    const base = outsideJobScope ? { userId: null, isAdmin, accessLevel: 0 } : { userId: actor.user?.id ?? null, isAdmin, accessLevel: await accessLevel(actor, subject) };
    if ('project' in subject) return { ...base, visibility: subject.project.visibility, archived: subject.project.archived, features: subject.project };
    // A personal namespace is visible to everyone (its projects carry their own visibility).
    return { ...base, visibility: subject.group.kind === 'user' ? 'public' : subject.group.visibility };
  }

  async function abilities(actor: Actor, subject: Subject): Promise<Set<Action>> {
    const ctx = await context(actor, subject);
    return 'project' in subject ? projectAbilities(ctx) : groupAbilities(ctx);
  }

  return {
    accessLevel,
    abilities,
    /** Records a level loaded together with the subject (same SQL as effectiveAccessLevel), for this request. */
    remember(actor: Actor, subject: Subject, level: number): void {
      if (actor.user) actor.accessCache?.set(cacheKey(subject), level);
    },
    async canRead(actor: Actor, subject: Subject): Promise<boolean> {
      return canRead(await context(actor, subject));
    },
    async can(actor: Actor, action: Action, subject: Subject): Promise<boolean> {
      return (await abilities(actor, subject)).has(action);
    },
    /**
     * Throws NotFound when the caller may not even see the subject (so its
     * existence does not leak), Forbidden when they see it but may not act.
     */
    async authorize(actor: Actor, action: Action, subject: Subject): Promise<void> {
      const ctx = await context(actor, subject);
      const what = 'project' in subject ? 'Project' : 'Group';
      if (!canRead(ctx)) throw new NotFoundError(what);
      const granted = 'project' in subject ? projectAbilities(ctx) : groupAbilities(ctx);
      if (!granted.has(action as never)) throw new ForbiddenError();
    },
  };
}

export type Authorizer = ReturnType<typeof createAuthorizer>;

/**
 * Token scopes (GitLab's): `api` grants everything; `read_api` grants reads;
 * `read_user` grants reading the user endpoints; repository scopes apply to
 * git over HTTP; a route may name more scopes that grant it (`create_runner` for POST
 * /user/runners, `manage_runner` for the runner endpoints). Sessions and anonymous callers are
 * not scope-limited.
 */
export function assertApiScope(actor: Actor, method: string, options: { userEndpoint?: boolean; alsoScopes?: readonly TokenScope[] } = {}): void {
  if (!actor.scopes) return;
  const read = method === 'GET' || method === 'HEAD';
  const allowed: TokenScope[] = read ? ['api', 'read_api'] : ['api'];
  if (read && options.userEndpoint) allowed.push('read_user');
  if (options.alsoScopes) allowed.push(...options.alsoScopes);
  if (!actor.scopes.some((scope) => allowed.includes(scope))) throw new InsufficientScopeError(allowed);
}

export function assertGitScope(actor: Actor, operation: 'fetch' | 'push'): void {
  if (!actor.scopes) return;
  const allowed: TokenScope[] = operation === 'fetch' ? ['api', 'read_repository', 'write_repository'] : ['api', 'write_repository'];
  if (!actor.scopes.some((scope) => allowed.includes(scope))) throw new InsufficientScopeError(allowed);
}
