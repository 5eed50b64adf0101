import { ACCESS_LEVEL_NAMES, MEMBER_ACCESS_LEVELS, AccessLevel } from '@tributary/contracts';
import { isUniqueViolation } from '../../platform/db/database.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import type { Authorizer, Subject } from '../../auth/authorizer.js';
import { canAssignAccessLevel, canChangeMember } from '../../auth/permissions.js';
import type { Namespace } from '../namespaces/namespace.js';
import type { Project } from '../projects/project.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { MemberSource } from './member.js';
import type { MembersRepository } from './members.repository.js';

export interface AddMemberInput {
  user_id?: number | string;
  username?: string;
  access_level?: number | string;
  expires_at?: string | null;
}

export type MembershipTarget = { project: Project } | { group: Namespace };

export function sourceOf(target: MembershipTarget): MemberSource {
  if ('project' in target) {
    const p = target.project;
    return { kind: 'project', id: p.id, traversalIds: p.namespace_kind === 'group' ? p.namespace_traversal_ids : [], namespaceOwnerId: p.namespace_owner_id };
  }
  return { kind: 'group', id: target.group.id, traversalIds: target.group.traversal_ids };
}

function parseAccessLevel(value: number | string | undefined): number {
  if (value === undefined || value === '') throw ValidationError.missing('access_level');
  const level = Number(value);
  if (!MEMBER_ACCESS_LEVELS.includes(level as (typeof MEMBER_ACCESS_LEVELS)[number])) {
    throw new ValidationError('400 (Bad request) "access_level" does not have a valid value');
  }
  return level;
}

function parseExpiry(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw ValidationError.field('expires_at', 'is invalid');
  if (new Date(`${value}T23:59:59Z`).getTime() < Date.now()) throw ValidationError.field('expires_at', 'cannot be a date in the past');
  return value;
}

export function createMembersService(deps: {
  members: MembersRepository;
  users: Pick<UsersRepository, 'findById' | 'findByUsername'>;
  authorizer: Authorizer;
}) {
  async function assertCanManage(actor: Actor, target: MembershipTarget, requestedLevel?: number): Promise<void> {
    await deps.authorizer.authorize(actor, 'admin_members', target as Subject);
    if (requestedLevel !== undefined) {
      const own = await deps.authorizer.accessLevel(actor, target as Subject);
      if (!canAssignAccessLevel(own, actor.user?.is_admin === true, requestedLevel)) {
        throw new ForbiddenError(`403 Forbidden - cannot assign ${ACCESS_LEVEL_NAMES[requestedLevel]} role`);
      }
    }
  }

  /** Refuses changes to an Owner's membership by anyone below Owner. */
  async function assertCanChange(actor: Actor, target: MembershipTarget, userId: number): Promise<void> {
    const source = sourceOf(target);
    const current = (await deps.members.listDirect(source, { userIds: [userId], limit: 1, offset: 0 })).members[0];
    if (!current) throw new NotFoundError('Member');
    const own = await deps.authorizer.accessLevel(actor, target as Subject);
    if (!canChangeMember(own, actor.user?.is_admin === true, current.access_level)) {
      throw new ForbiddenError('403 Forbidden - Only Owners can change or remove an Owner');
    }
  }

  return {
    async list(actor: Actor, target: MembershipTarget, options: { all: boolean; query?: string; userIds?: number[]; limit: number; offset: number }) {
      await deps.authorizer.authorize(actor, 'read_members', target as Subject);
      const source = sourceOf(target);
      return options.all ? deps.members.listAll(source, options) : deps.members.listDirect(source, options);
    },
    async get(actor: Actor, target: MembershipTarget, userId: number, all: boolean) {
      await deps.authorizer.authorize(actor, 'read_members', target as Subject);
      const source = sourceOf(target);
      const page = all
        ? await deps.members.listAll(source, { userIds: [userId], limit: 1, offset: 0 })
        : await deps.members.listDirect(source, { userIds: [userId], limit: 1, offset: 0 });
      const member = page.members[0];
      if (!member) throw new NotFoundError('Member');
      return member;
    },
    async add(actor: Actor, target: MembershipTarget, input: AddMemberInput) {
      const level = parseAccessLevel(input.access_level);
      await assertCanManage(actor, target, level);
      const expiresAt = parseExpiry(input.expires_at) ?? null;
      if (input.user_id === undefined && !input.username) throw ValidationError.missing('user_id');
      const user =
        input.user_id !== undefined
          ? /^\d+$/.test(String(input.user_id))
            ? await deps.users.findById(Number(input.user_id))
            : undefined
          : await deps.users.findByUsername(input.username!);
      if (!user) throw new NotFoundError('User');
      const source = sourceOf(target);
      try {
        await deps.members.insert(source, { userId: user.id, accessLevel: level, expiresAt, createdById: actor.user!.id });
      } catch (error) {
        if (isUniqueViolation(error)) throw new ConflictError('Member already exists');
        throw error;
      }
      return (await deps.members.listDirect(source, { userIds: [user.id], limit: 1, offset: 0 })).members[0]!;
    },
    async update(actor: Actor, target: MembershipTarget, userId: number, input: { access_level?: number | string; expires_at?: string | null }) {
      const level = input.access_level === undefined ? undefined : parseAccessLevel(input.access_level);
      await assertCanManage(actor, target, level);
      await assertCanChange(actor, target, userId);
      const source = sourceOf(target);
      if (source.kind === 'group' && level !== undefined && level < AccessLevel.Owner) await assertNotLastOwner(source.id, userId);
      const updated = await deps.members.update(source, userId, { accessLevel: level, expiresAt: parseExpiry(input.expires_at) });
      if (!updated) throw new NotFoundError('Member');
      return (await deps.members.listDirect(source, { userIds: [userId], limit: 1, offset: 0 })).members[0]!;
    },
    async remove(actor: Actor, target: MembershipTarget, userId: number) {
      const source = sourceOf(target);
      // Members may always leave; removing someone else needs admin_members.
      if (actor.user?.id !== userId) {
        await assertCanManage(actor, target);
        await assertCanChange(actor, target, userId);
      } else await deps.authorizer.authorize(actor, 'read_members', target as Subject);
      if (source.kind === 'group') await assertNotLastOwner(source.id, userId);
      const removed = await deps.members.remove(source, userId);
      if (!removed) throw new NotFoundError('Member');
    },
  };

  async function assertNotLastOwner(groupId: number, userId: number): Promise<void> {
    const page = await deps.members.listDirect({ kind: 'group', id: groupId, traversalIds: [] }, { userIds: [userId], limit: 1, offset: 0 });
    if (page.members[0]?.access_level === AccessLevel.Owner && (await deps.members.countOwners(groupId)) <= 1) {
      throw new ForbiddenError('403 Forbidden - A group must have at least one owner');
    }
  }
}

export type MembersService = ReturnType<typeof createMembersService>;
