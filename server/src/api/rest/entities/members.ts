import type { Member } from '../../../domains/members/member.js';
import { userBasic, type UrlBuilder } from './users.js';

export function member(m: Member, urls: UrlBuilder) {
  return Object.assign(userBasic(m.user, urls), {
    access_level: m.access_level,
    created_at: m.created_at instanceof Date ? m.created_at.toISOString() : m.created_at,
    created_by: null,
    expires_at: m.expires_at,
    membership_state: 'active',
  });
}
