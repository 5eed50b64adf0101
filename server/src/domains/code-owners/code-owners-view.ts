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
import type { ResolvedGroup, ResolvedUser } from './code-owners.repository.js';

/** GitLab's CODEOWNERS validation messages, by error kind. */
export const CODE_OWNERS_ERROR_MESSAGES: Record<CodeOwnersErrorKind, string> = {
  invalid_approval_requirement: 'Less than 1 required approvals',
  invalid_section_format: 'Unparsable sections',
  invalid_section_owner_format: 'Inaccessible owners',
  malformed_entry_owner: 'Malformed owners',
  missing_entry_owner: 'Zero owners',
  missing_section_name: 'Missing section name',
};

export interface CodeOwnersOfFile {
  /** the CODEOWNERS file that applies at the ref, or null */
  codeownersPath: string | null;
  users: ResolvedUser[];
  groups: ResolvedGroup[];
  /** the file's errors, when `path` is that file; null otherwise */
  errors: Array<{ kind: CodeOwnersErrorKind; line: number; message: string }> | null;
}

export function createCodeOwnersView(deps: { access: Pick<RepositoryAccess, 'open'>; codeOwners: Pick<CodeOwnersService, 'ownersOfPath'> }) {
  return {
    async ofFile(actor: Actor, projectPath: string, ref: string | undefined, path: string): Promise<CodeOwnersOfFile> {
      const { project, repoPath } = await deps.access.open(actor, projectPath, 'download_code');
      const commit = await resolveCommit(repoPath, ref || project.default_branch);
      if (!commit) throw new NotFoundError('Ref');
      const { file, owners } = await deps.codeOwners.ownersOfPath(project.id, commit, path);
      return {
        codeownersPath: file?.path ?? null,
        users: owners.users,
        groups: owners.groups,
        errors: file && file.path === path ? file.errors.map((error) => ({ ...error, message: CODE_OWNERS_ERROR_MESSAGES[error.kind] })) : null,
      };
    },
  };
}

export type CodeOwnersView = ReturnType<typeof createCodeOwnersView>;
