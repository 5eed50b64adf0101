/**
 * The file view's code owners: who owns a path at a ref (the blob page's "Code owners" line),
 * and, when the path is the CODEOWNERS file that applies, its syntax errors by line (GitLab's
 * CODEOWNERS validation, with its messages). Read with the caller's right to read the code: a
 * project they may not see is a 404 like one that does not exist.
 */
import type { Actor } from '../../auth/actor.js';
import { resolveCommit } from '../../git/refs.js';
import { NotFoundError } from '../../platform/errors.js';
import type { RepositoryAccess } from '../repository/repository-access.js';
import type { CodeOwnersErrorKind } from './codeowners-file.js';
import type { CodeOwnersService } from './code-owners.service.js';
import type { OwnerCheckKind } from './owner-checks.js';
import type { ResolvedGroup, ResolvedUser } from './code-owners.repository.js';

/** GitLab's CODEOWNERS validation messages, by error kind (syntax errors, then owner checks). */
export const CODE_OWNERS_ERROR_MESSAGES: Record<CodeOwnersErrorKind | OwnerCheckKind, string> = {
  invalid_approval_requirement: 'Less than 1 required approvals',
  invalid_section_format: 'Unparsable sections',
  invalid_section_owner_format: 'Inaccessible owners',
  malformed_entry_owner: 'Malformed owners',
  missing_entry_owner: 'Zero owners',
  missing_section_name: 'Missing section name',
  inaccessible_owner: 'Contains owners which are not accessible within the project',
  group_without_eligible_approvers: 'Group has no members with permission to approve merge requests',
  owner_without_permission: 'Contains owners without permission to approve merge requests',
};

export interface CodeOwnersOfFile {
  /** the CODEOWNERS file that applies at the ref, or null */
  codeownersPath: string | null;
  users: ResolvedUser[];
  groups: ResolvedGroup[];
  /** the file's errors, when `path` is that file; null otherwise */
  errors: Array<{ kind: CodeOwnersErrorKind | OwnerCheckKind; line: number; message: string }> | null;
}

export function createCodeOwnersView(deps: { access: Pick<RepositoryAccess, 'open'>; codeOwners: Pick<CodeOwnersService, 'ownersOfPath' | 'checkOwners'> }) {
  return {
    async ofFile(actor: Actor, projectPath: string, ref: string | undefined, path: string): Promise<CodeOwnersOfFile> {
      const { project, repoPath } = await deps.access.open(actor, projectPath, 'download_code');
      const commit = await resolveCommit(repoPath, ref || project.default_branch);
      if (!commit) throw new NotFoundError('Ref');
      const { file, owners } = await deps.codeOwners.ownersOfPath(project.id, commit, path);
      let errors: CodeOwnersOfFile['errors'] = null;
      if (file && file.path === path) {
        const scope = { id: project.id, traversalIds: project.namespace_kind === 'group' ? project.namespace_traversal_ids.map(Number) : [], namespaceOwnerId: project.namespace_owner_id };
        const found = [...file.errors, ...(await deps.codeOwners.checkOwners(scope, file))];
        errors = found.map((error) => ({ ...error, message: CODE_OWNERS_ERROR_MESSAGES[error.kind] }));
      }
      return { codeownersPath: file?.path ?? null, users: owners.users, groups: owners.groups, errors };
    },
  };
}

export type CodeOwnersView = ReturnType<typeof createCodeOwnersView>;
