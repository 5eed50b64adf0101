import type { ProtectedTagView } from '../../../domains/repository/protected-tags.service.js';

/** GitLab's Entities::ProtectedTag: the name or pattern and who may create matching tags. */
export function protectedTagEntity(protection: ProtectedTagView) {
  return {
    name: protection.name,
    create_access_levels: protection.rules.map((rule) => ({
      id: rule.id,
      access_level: rule.access_level,
      access_level_description: rule.description,
      user_id: rule.user_id,
      group_id: rule.group_id,
      deploy_key_id: null,
    })),
  };
}
