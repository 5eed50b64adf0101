/**
 * Code owners: GitLab's CODEOWNERS file (sections, exclusions, roles), where it is found, and
 * which entries own which paths. Pure apart from the loader, which reads the file at a commit;
 * approval rules of type code_owner are made from `match` (one rule per owning entry).
 */
export { CODEOWNERS_PATHS, DEFAULT_SECTION, parseCodeOwners, parseOwner, type CodeOwnersEntry, type CodeOwnersError, type CodeOwnersFile, type CodeOwnersSection, type OwnerReference, type OwnerRole } from './codeowners-file.js';
export { createCodeOwnersMatcher, type CodeOwnersMatcher, type MatchedEntry, type OwningEntry } from './codeowners-matcher.js';
export { loadCodeOwners, type LoadedCodeOwners } from './codeowners-loader.js';
export { createCodeOwnersService, type CodeOwnersAtCommit, type CodeOwnersService, type ResolvedCodeOwnerRule, type ResolvedOwners } from './code-owners.service.js';
export { createCodeOwnersRepository, type CodeOwnersRepository } from './code-owners.repository.js';
export { CODE_OWNERS_ERROR_MESSAGES, createCodeOwnersView, type CodeOwnersOfFile, type CodeOwnersView } from './code-owners-view.js';
