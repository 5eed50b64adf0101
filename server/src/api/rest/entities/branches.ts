import type { BranchView, TagView } from '../../../domains/repository/branches.service.js';
import { commitEntity, type ProjectPath } from './commits.js';
import type { UrlBuilder } from './users.js';

/** A ref name in a web URL: each `/`-separated part encoded, the slashes kept (as GitLab's tree URLs). */
export const refUrlPath = (name: string) => name.split('/').map(encodeURIComponent).join('/');

/** GitLab's Entities::Branch. */
export function branchEntity(branch: BranchView, project: ProjectPath, urls: UrlBuilder) {
  return {
    name: branch.name,
    merged: branch.merged,
    protected: branch.protected,
    default: branch.default,
    developers_can_push: branch.developers_can_push,
    developers_can_merge: branch.developers_can_merge,
    can_push: branch.can_push,
    web_url: urls.web(`${project.full_path}/-/tree/${refUrlPath(branch.name)}`),
    commit: commitEntity(branch.commit, project, urls),
  };
}

/** GitLab's Entities::Tag (releases are not modelled yet). */
export function tagEntity(tag: TagView, project: ProjectPath, urls: UrlBuilder) {
  return {
    name: tag.name,
    message: tag.message,
    target: tag.target,
    commit: tag.commit ? commitEntity(tag.commit, project, urls) : null,
    release: null,
    protected: tag.protected ?? false,
    created_at: tag.created_at ? tag.created_at.toISOString() : null,
  };
}
