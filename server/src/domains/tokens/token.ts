export interface PersonalAccessToken {
  id: number;
  user_id: number;
  name: string;
  scopes: string[];
  /** YYYY-MM-DD */
  expires_at: string | null;
  revoked: boolean;
  created_at: Date;
  last_used_at: Date | null;
}

/** GitLab's maximum (and default) lifetime of a personal access token. */
export const MAX_TOKEN_LIFETIME_DAYS = 365;

export function isActive(token: PersonalAccessToken, today = new Date()): boolean {
  return !token.revoked && (token.expires_at === null || token.expires_at > today.toISOString().slice(0, 10));
}
