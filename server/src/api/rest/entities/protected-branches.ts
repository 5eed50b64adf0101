import type { AccessRuleView, ProtectedBranchView } from '../../../domains/repository/protected-branches.service.js';
import type { AccessKind } from '../../../domains/protected-branches/protected-branch.js';

/** One access level item: a role (`access_level`), a user or a group (of a protected branch or tag). */
export function accessLevelEntity(rule: Pick<AccessRuleView, 'id' | 'access_level' | 'description' | 'user_id' | 'group_id'>) {
  return {
    id: rule.id,
    access_level: rule.access_level,
    access_level_description: rule.description,
    user_id: rule.user_id,
    group_id: rule.group_id,
    deploy_key_id: null,
  };
}

const ofKind = (protection: ProtectedBranchView, kind: AccessKind) => protection.rules.filter((rule) => rule.kind === kind).map(accessLevelEntity);

/** GitLab's Entities::ProtectedBranch. */
export function protectedBranchEntity(protection: ProtectedBranchView) {
  return {
    id: protection.id,
    name: protection.name,
    push_access_levels: ofKind(protection, 'push'),
    merge_access_levels: ofKind(protection, 'merge'),
    unprotect_access_levels: ofKind(protection, 'unprotect'),
    allow_force_push: protection.allow_force_push,
    code_owner_approval_required: protection.code_owner_approval_required,
    inherited: false,
  };
}
