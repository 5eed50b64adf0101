/**
 * The CODEOWNERS file that applies at a commit: the first of `CODEOWNERS`, `docs/CODEOWNERS`
 * and `.gitlab/CODEOWNERS` that exists there (GitLab's order), parsed. A file above the size
 * limit, or one git cannot read, applies as none.
 */
import { readBlobsAt } from '../../git/tree.js';
import { CODEOWNERS_PATHS, MAX_CODEOWNERS_BYTES, parseCodeOwners, type CodeOwnersFile } from './codeowners-file.js';

export interface LoadedCodeOwners {
  /** where the file is (one of CODEOWNERS_PATHS) */
  path: string;
  file: CodeOwnersFile;
}

export async function loadCodeOwners(repoPath: string, commit: string): Promise<LoadedCodeOwners | null> {
  let blobs;
  try {
    blobs = await readBlobsAt(repoPath, commit, CODEOWNERS_PATHS, { maxBytes: MAX_CODEOWNERS_BYTES * 3 + 4096 });
  } catch {
    return null;
  }
  for (const path of CODEOWNERS_PATHS) {
    const blob = blobs.get(path);
    if (!blob) continue;
    if (blob.content.length > MAX_CODEOWNERS_BYTES) return null;
    return { path, file: parseCodeOwners(blob.content.toString('utf8')) };
  }
  return null;
}
