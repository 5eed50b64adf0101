import { isActive, type PersonalAccessToken } from '../../../domains/tokens/token.js';

export function personalAccessToken(token: PersonalAccessToken) {
  return {
    id: token.id,
    name: token.name,
    description: null,
    revoked: token.revoked,
    created_at: token.created_at.toISOString(),
    scopes: token.scopes,
    user_id: token.user_id,
    last_used_at: token.last_used_at?.toISOString() ?? null,
    active: isActive(token),
    expires_at: token.expires_at,
  };
}
