import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import { TOKEN_SCOPES, type TokenScope } from '../../auth/actor.js';
import { digest, generateToken } from '../../auth/secrets.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { EventBus } from '../../platform/events.js';
import type { User } from '../users/user.js';
import type { TokensRepository } from './tokens.repository.js';
import { createTokenCache } from './token-cache.js';
import { MAX_TOKEN_LIFETIME_DAYS, type PersonalAccessToken } from './token.js';

export interface CreateTokenInput {
  name?: string;
  scopes?: string[] | string;
  expires_at?: string | null;
}

function usedWithinAMinute(lastUsedAt: Date | null, now = Date.now()): boolean {
  return lastUsedAt !== null && now - new Date(lastUsedAt).getTime() < 60_000;
}

function addDays(date: Date, days: number): string {
  return new Date(date.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/** GitLab's admin scopes (Gitlab::Auth::ADMIN_SCOPES): only an administrator's token may carry them. */
export const ADMIN_SCOPES: readonly TokenScope[] = ['sudo', 'admin_mode'];

/** GitLab's Gitlab::Auth.available_scopes_for(user): every scope for an administrator, the others for everyone else. */
export function availableScopes(owner: { is_admin: boolean }): TokenScope[] {
  return TOKEN_SCOPES.filter((scope) => owner.is_admin || !ADMIN_SCOPES.includes(scope));
}

/** The refusal of a scope the token's owner may not have (GitLab's token validation, as its API words it). */
export const UNAVAILABLE_SCOPES_MESSAGE = '400 Bad request - Scopes can only contain available scopes';

/**
 * Pure validation of a token request for `owner` (the user the token will belong to); returns
 * normalised values or throws ValidationError.
 */
export function validateTokenInput(input: CreateTokenInput, owner: { is_admin: boolean }, today = new Date()): { name: string; scopes: TokenScope[]; expiresAt: string } {
  if (!input.name) throw ValidationError.missing('name');
  const scopes = (Array.isArray(input.scopes) ? input.scopes : input.scopes ? [input.scopes] : []) as TokenScope[];
  if (scopes.length === 0) throw ValidationError.missing('scopes');
  const unknown = scopes.filter((scope) => !TOKEN_SCOPES.includes(scope));
  if (unknown.length) throw new ValidationError('400 (Bad request) "scopes" does not have a valid value');
  const available = availableScopes(owner);
  if (scopes.some((scope) => !available.includes(scope))) throw new ValidationError(UNAVAILABLE_SCOPES_MESSAGE);
  const todayText = today.toISOString().slice(0, 10);
  const latest = addDays(today, MAX_TOKEN_LIFETIME_DAYS);
  let expiresAt = input.expires_at || latest;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expiresAt) || Number.isNaN(Date.parse(expiresAt))) throw ValidationError.field('expires_at', 'is invalid');
  if (expiresAt <= todayText) throw ValidationError.field('expires_at', 'must be in the future');
  if (expiresAt > latest) throw ValidationError.field('expires_at', `must be before ${latest}`);
  expiresAt = expiresAt.slice(0, 10);
  return { name: input.name, scopes: [...new Set(scopes)], expiresAt };
}

export function createTokensService(deps: { tokens: TokensRepository; users: Pick<UsersRepository, 'findById'>; events: Pick<EventBus, 'publish'> }) {
  const cache = createTokenCache<{ token: PersonalAccessToken; user: User }>();
  // Every token-authenticated request asks: the date string is worked out once a second at most.
  let day = { text: '', until: 0 };
  const today = () => {
    const now = Date.now();
    if (now >= day.until) day = { text: new Date(now).toISOString().slice(0, 10), until: now + 1_000 };
    return day.text;
  };

  async function findVisible(actor: Actor, id: number): Promise<PersonalAccessToken> {
    const token = await deps.tokens.findById(id);
    if (!token || (token.user_id !== actor.user?.id && !actor.user?.is_admin)) throw new NotFoundError('Token');
    return token;
  }

  return {
    /**
     * Issues a token for `userId`. Users create their own; administrators
     * create them for anyone; `actor` null is the machine owner (CLI).
     * The secret is returned once and only its digest is stored.
     */
    async create(actor: Actor | null, userId: number, input: CreateTokenInput): Promise<PersonalAccessToken & { token: string }> {
      if (actor && actor.user?.id !== userId && !actor.user?.is_admin) throw new ForbiddenError();
      const user = await deps.users.findById(userId);
      if (!user) throw new NotFoundError('User');
      const valid = validateTokenInput(input, user);
      const secret = generateToken();
      const row = await deps.tokens.insert({ userId, name: valid.name, digest: digest(secret), scopes: valid.scopes, expiresAt: valid.expiresAt });
      return { ...row, token: secret };
    },
    /** Resolves a presented secret to its active token and owner, or undefined. */
    async authenticate(secret: string) {
      const key = digest(secret);
      const cached = cache.get(key);
      if (cached && (cached.token.expires_at === null || cached.token.expires_at > today())) return cached;
      const found = await deps.tokens.findActiveWithUser(key);
      if (found) cache.set(key, found);
      // last_used_at is kept to the minute; most requests need no write at all.
      if (found && !usedWithinAMinute(found.token.last_used_at)) void deps.tokens.touch(found.token.id).catch(() => undefined);
      return found;
    },
    async list(actor: Actor, filter: { userId?: number; state?: 'active' | 'inactive'; limit: number; offset: number }) {
      if (!actor.user) throw new NotFoundError();
      const userId = actor.user.is_admin ? filter.userId : actor.user.id;
      return deps.tokens.list({ ...filter, userId });
    },
    get: findVisible,
    async revoke(actor: Actor, id: number): Promise<void> {
      const token = await findVisible(actor, id);
      if (token.revoked) throw new ValidationError('400 Bad request - Token already revoked');
      await deps.tokens.revoke(token.id);
      cache.deleteWhere((entry) => entry.token.id === token.id);
      await deps.events.publish('token.revoked', { tokenId: token.id, userId: token.user_id });
    },
    /** Drops cached authentications (a token revoked in another process, a user changed). */
    forget(filter: { tokenId?: number; userId?: number }): void {
      cache.deleteWhere((entry) => entry.token.id === filter.tokenId || entry.user.id === filter.userId);
    },
  };
}

export type TokensService = ReturnType<typeof createTokensService>;
