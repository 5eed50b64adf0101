import type { Namespace } from '../../../domains/namespaces/namespace.js';
import type { UrlBuilder } from './users.js';

export function namespaceBasic(ns: Namespace, urls: UrlBuilder) {
  return {
    id: ns.id,
    name: ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.full_path,
    parent_id: ns.parent_id,
    avatar_url: null,
    web_url: urls.web(ns.kind === 'group' ? `groups/${ns.full_path}` : ns.full_path),
  };
}

export function group(ns: Namespace, urls: UrlBuilder) {
  return {
    id: ns.id,
    web_url: urls.web(`groups/${ns.full_path}`),
    name: ns.name,
    path: ns.path,
    description: ns.description,
    visibility: ns.visibility,
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: 'developer',
    auto_devops_enabled: null,
    subgroup_creation_level: 'maintainer',
    emails_disabled: false,
    emails_enabled: true,
    mentions_disabled: null,
    lfs_enabled: true,
    default_branch: null,
    default_branch_protection: 2,
    avatar_url: null,
    request_access_enabled: true,
    full_name: ns.full_name,
    full_path: ns.full_path,
    created_at: ns.created_at.toISOString(),
    parent_id: ns.parent_id,
    organization_id: 1,
    shared_runners_setting: 'enabled',
  };
}
