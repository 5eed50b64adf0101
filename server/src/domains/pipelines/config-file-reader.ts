/**
 * How a pipeline reads configuration files (`.gitlab-ci.yml` and `include`), for CI Lint and
 * pipeline creation alike: this project's files at the pipeline's commit, other projects' at
 * their ref (HEAD by default) only when the actor may read their code, and a file larger than
 * git's output cap answered as one the loader refuses as too big.
 */
import type { Actor } from '../../auth/actor.js';
import { resolveCommit } from '../../git/refs.js';
import { readBlobAt } from '../../git/tree.js';
import type { Project } from '../projects/project.js';
import type { RepositoryAccess } from '../repository/repository-access.js';
import { MAX_YAML_SIZE_BYTES } from './config/limits.js';
import type { ReadConfigFile } from './config/types.js';

export async function readConfigBlob(repoPath: string, commit: string, path: string): Promise<{ content: string } | { error: 'file_not_found' }> {
  try {
    const blob = await readBlobAt(repoPath, commit, path, { maxBytes: MAX_YAML_SIZE_BYTES * 2 });
    return blob ? { content: blob.content.toString('utf8') } : { error: 'file_not_found' };
  } catch {
    return { content: ' '.repeat(MAX_YAML_SIZE_BYTES + 1) };
  }
}

export function configFileReader(
  access: Pick<RepositoryAccess, 'open'>,
  actor: Actor,
  project: Pick<Project, 'full_path'>,
  repoPath: string,
  /** this project's commit; empty when the ref names none */
  commit: string,
): ReadConfigFile {
  return async (request) => {
    if (request.project === undefined || request.project.toLowerCase() === project.full_path.toLowerCase()) {
      const at = request.project === undefined ? commit : await resolveCommit(repoPath, request.ref ?? 'HEAD');
      if (!at) return { error: request.project === undefined ? 'file_not_found' : 'ref_not_found' };
      return readConfigBlob(repoPath, at, request.path);
    }
    let other;
    try {
      other = await access.open(actor, request.project, 'download_code');
    } catch {
      return { error: 'project_not_found' };
    }
    const at = await resolveCommit(other.repoPath, request.ref ?? 'HEAD');
    if (!at) return { error: 'ref_not_found' };
    return readConfigBlob(other.repoPath, at, request.path);
  };
}
