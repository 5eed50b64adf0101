import type { Database, Queryable } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { hashPassword, MINIMUM_PASSWORD_LENGTH } from '../../auth/passwords.js';
import type { Actor } from '../../auth/actor.js';
import type { EventBus } from '../../platform/events.js';
import type { NamespacesRepository } from '../namespaces/namespaces.repository.js';
import type { UsersRepository } from './users.repository.js';
import { RESERVED_TOP_LEVEL_PATHS, USERNAME_PATTERN, type User } from './user.js';

export interface CreateUserInput {
  username?: string;
  name?: string;
  email?: string;
  password?: string;
  admin?: boolean;
}

export interface UpdateUserInput {
  name?: string;
  email?: string;
  username?: string;
  password?: string;
  admin?: boolean;
  bio?: string;
}

/** Pure validation of a new user; returns GitLab's `{field: [errors]}` or null. */
export function validateNewUser(input: CreateUserInput): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!input.username) add('username', "can't be blank");
  else if (!USERNAME_PATTERN.test(input.username) || /\.(git|atom)$/i.test(input.username)) {
    add('username', "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.");
  } else if (RESERVED_TOP_LEVEL_PATHS.has(input.username.toLowerCase())) add('username', `${input.username} is a reserved name`);
  if (!input.name) add('name', "can't be blank");
  else if (input.name.length > 255) add('name', 'is too long (maximum is 255 characters)');
  if (!input.email) add('email', "can't be blank");
  else if (!/^[^\s@]+@[^\s@]+$/.test(input.email)) add('email', 'is invalid');
  if (input.password !== undefined && input.password.length < MINIMUM_PASSWORD_LENGTH) {
    add('password', `is too short (minimum is ${MINIMUM_PASSWORD_LENGTH} characters)`);
  }
  return Object.keys(errors).length ? errors : null;
}

export function createUsersService(deps: {
  db: Pick<Database, 'transaction'>;
  events: Pick<EventBus, 'publish'>;
  users: UsersRepository;
  namespaces: Pick<NamespacesRepository, 'insert' | 'routeTaken' | 'findUserNamespace' | 'deleteSubtree'>;
  /** the personal projects of a deleted user: rows marked, repositories removed by a job */
  personalProjects?: { idsIn(namespaceIds: number[], tx: Queryable): Promise<number[]>; remove(projectIds: number[], tx: Queryable): Promise<void> };
  /** evicts the user from this process's auth cache at once; other processes hear `user.changed` */
  forgetAuthentications: (userId: number) => void;
}) {
  return {
    /**
     * Creates a user and their personal namespace in one transaction. Only
     * administrators create users through the API; the CLI and first start
     * call this with `actor` null (the machine owner).
     */
    async create(actor: Actor | null, input: CreateUserInput): Promise<User> {
      if (actor && !actor.user?.is_admin) throw new ForbiddenError();
      const errors = validateNewUser(input);
      if (errors) throw new ValidationError(errors);
      if (!input.password) throw ValidationError.missing('password');
      const passwordHash = await hashPassword(input.password);
      try {
        return await deps.db.transaction(async (tx) => {
          const taken: Record<string, string[]> = {};
          if (await deps.users.exists('username', input.username!, tx)) taken.username = ['has already been taken'];
          else if (await deps.namespaces.routeTaken(input.username!, tx)) taken.username = ['has already been taken'];
          if (await deps.users.exists('email', input.email!, tx)) taken.email = ['has already been taken'];
          if (Object.keys(taken).length) throw new ValidationError(taken);
          const user = await deps.users.insert(
            { username: input.username!, name: input.name!, email: input.email!, passwordHash, isAdmin: input.admin === true },
            tx,
          );
          await deps.namespaces.insert(
            { kind: 'user', name: user.name, path: user.username, parent: null, ownerId: user.id, visibility: 'public', description: '' },
            tx,
          );
          return user;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw ValidationError.field('username', 'has already been taken');
        throw error;
      }
    },
    /**
     * Blocking signs the user out everywhere: sessions are deleted, this
     * process forgets their tokens before answering (the event arrives
     * asynchronously), and `user.changed` evicts them in every other process.
     */
    async setBlocked(actor: Actor, id: number, blocked: boolean): Promise<boolean | null> {
      if (!actor.user?.is_admin) throw new ForbiddenError();
      const user = await deps.users.findById(id);
      if (!user) throw new NotFoundError('User');
      if (blocked && user.id === actor.user.id) throw new ForbiddenError('403 Forbidden - The API initiating user cannot be blocked by the API');
      // GitLab's answers: blocking a blocked user is `null`, unblocking an active one `false`.
      if (user.state === (blocked ? 'blocked' : 'active')) return blocked ? null : false;
      await deps.users.setState(id, blocked ? 'blocked' : 'active');
      deps.forgetAuthentications(id);
      await deps.events.publish('user.changed', { userId: id });
      return true;
    },
    /** PUT /users/:id (administrators): GitLab's 409 for an email or username another user has. */
    async update(actor: Actor, id: number, input: UpdateUserInput): Promise<User> {
      if (!actor.user?.is_admin) throw new ForbiddenError();
      const user = await deps.users.findById(id);
      if (!user) throw new NotFoundError('User');
      if (input.email !== undefined && (await deps.users.emailTakenByOther(input.email, id))) throw new ConflictError('Email has already been taken');
      if (input.username !== undefined && input.username.toLowerCase() !== user.username.toLowerCase()) {
        if (await deps.users.exists('username', input.username)) throw new ConflictError('Username has already been taken');
        // The personal namespace, its routes and its projects' paths would move with it: not supported yet.
        throw ValidationError.field('username', 'cannot be changed through the API');
      }
      const errors = validateNewUser({ username: user.username, name: input.name ?? user.name, email: input.email ?? user.email, password: input.password });
      if (errors) throw new ValidationError(errors);
      const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
      await deps.users.update(id, { name: input.name, email: input.email, passwordHash, isAdmin: input.admin, bio: input.bio });
      if (passwordHash !== undefined || input.admin === false) {
        deps.forgetAuthentications(id);
        await deps.events.publish('user.changed', { userId: id });
      }
      return (await deps.users.findById(id))!;
    },
    /**
     * DELETE /users/:id (administrators): 409 while the user is a group's only Owner unless
     * `hard_delete`; their personal namespace and projects go too (repositories by a job).
     */
    async remove(actor: Actor, id: number, options: { hardDelete?: boolean } = {}): Promise<void> {
      if (!actor.user?.is_admin) throw new ForbiddenError();
      const user = await deps.users.findById(id);
      if (!user) throw new NotFoundError('User');
      if (!options.hardDelete && (await deps.users.isSoleGroupOwner(id))) throw new ConflictError('User cannot be removed while is the sole-owner of a group');
      await deps.db.transaction(async (tx) => {
        const personal = await deps.namespaces.findUserNamespace(id, tx);
        if (personal) {
          const projectIds = (await deps.personalProjects?.idsIn([personal.id], tx)) ?? [];
          if (projectIds.length) await deps.personalProjects!.remove(projectIds, tx);
          await deps.namespaces.deleteSubtree(personal.id, tx);
        }
        await deps.users.remove(id, tx);
      });
      deps.forgetAuthentications(id);
      await deps.events.publish('user.changed', { userId: id });
    },
    async get(id: number): Promise<User> {
      const user = await deps.users.findById(id);
      if (!user) throw new NotFoundError('User');
      return user;
    },
    findByUsername: (username: string) => deps.users.findByUsername(username),
    list: deps.users.list,
    count: deps.users.count,
    countAdmins: deps.users.countAdmins,
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
