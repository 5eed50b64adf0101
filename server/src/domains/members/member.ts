import type { User } from '../users/user.js';

export type MemberSource = { kind: 'project'; id: number; traversalIds: number[]; namespaceOwnerId: number | null } | { kind: 'group'; id: number; traversalIds: number[] };

export interface Member {
  user: User;
  access_level: number;
  expires_at: string | null;
  created_at: Date;
  created_by_id: number | null;
  /** where the membership comes from: the source itself, or an ancestor group */
  source_kind: 'project' | 'group' | 'owner';
  source_id: number;
}
