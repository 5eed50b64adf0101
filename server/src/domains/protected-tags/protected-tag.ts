import { AccessLevel } from '@tributary/contracts';

/** One `create_access_levels` grant: a role, a user or a group (exactly one is set). */
export interface CreateAccessRule {
  id: number;
  kind: 'create';
  access_level: number | null;
  user_id: number | null;
  group_id: number | null;
}

/** GitLab's ProtectedTag: a tag name or `*` pattern, and who may create matching tags. */
export interface ProtectedTag {
  id: number;
  project_id: number;
  name: string;
  rules: CreateAccessRule[];
}

/** Roles GitLab lets a protected tag grant creation to: No one, Developers + Maintainers, Maintainers. */
export const PROTECTED_TAG_ACCESS_LEVELS = [AccessLevel.NoAccess, AccessLevel.Developer, AccessLevel.Maintainer] as const;
