import { AccessLevel } from '@tributary/contracts';
export type AccessKind = 'push' | 'merge' | 'unprotect';

export interface AccessLevelRule {
  id: number;
  kind: AccessKind;
  access_level: number | null;
  user_id: number | null;
  group_id: number | null;
}

export interface ProtectedBranch {
  id: number;
  project_id: number;
  name: string;
  allow_force_push: boolean;
  code_owner_approval_required: boolean;
  rules: AccessLevelRule[];
}

/** GitLab's descriptions of the role-based access levels. */
export function accessLevelDescription(level: number | null): string {
  switch (level) {
    case AccessLevel.NoAccess:
      return 'No one';
    case AccessLevel.Developer:
      return 'Developers + Maintainers';
    case AccessLevel.Maintainer:
      return 'Maintainers';
    case AccessLevel.Admin:
      return 'Admins';
    default:
      return level === null ? '' : String(level);
  }
}

/** Roles GitLab lets a protected branch grant push, merge or unprotect to. */
export const PROTECTED_BRANCH_ACCESS_LEVELS = [AccessLevel.NoAccess, AccessLevel.Developer, AccessLevel.Maintainer, AccessLevel.Admin] as const;
