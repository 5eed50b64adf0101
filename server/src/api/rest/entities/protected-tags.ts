import type { ProtectedTagView } from '../../../domains/repository/protected-tags.service.js';
import { accessLevelEntity } from './protected-branches.js';

/** GitLab's Entities::ProtectedTag: the name or pattern and who may create matching tags. */
export function protectedTagEntity(protection: ProtectedTagView) {
  return {
    name: protection.name,
    create_access_levels: protection.rules.map(accessLevelEntity),
  };
}
