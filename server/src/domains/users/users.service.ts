import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
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
  namespaces: Pick<NamespacesRepository, 'insert' | 'routeTaken'>;
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
    async setBlocked(actor: Actor, id: number, blocked: boolean): Promise<void> {
      if (!actor.user?.is_admin) throw new ForbiddenError();
      const user = await deps.users.findById(id);
      if (!user) throw new NotFoundError('User');
      if (blocked && user.id === actor.user.id) throw new ForbiddenError('403 Forbidden - You cannot block yourself');
      await deps.users.setState(id, blocked ? 'blocked' : 'active');
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
