import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { Actor } from '../../auth/actor.js';
import { assertDynamicValue, diff, DIFF_MAX_PATCH_BYTES, getCommit, NO_DIFF_LIMITS, mergeBaseOfCommits, resolveCommits, type Comparison, type GitCommit } from '../../git/index.js';
import type { ForksRepository } from '../forks/forks.repository.js';
import type { Project } from '../projects/project.js';
import type { RepositoryAccess } from './repository-access.js';

export interface CompareInput {
  from: string;
  to: string;
  straight?: boolean;
  /** GitLab's from_project_id: `from` names a ref of this project of the same fork network. */
  fromProjectId?: number;
  /** Only the files at these paths, each with its patch up to the size limit (not collapsed by the compare's line limit). */
  paths?: readonly string[];
}

/** GitLab asks for at least two; more than this is not a question anyone asks. */
const MERGE_BASE_MAX_REFS = 100;

const isRevision = (ref: string) => {
  try {
    assertDynamicValue(ref);
    return true;
  } catch {
    return false;
  }
};

/**
 * Compare (doc/api/repositories.md#compare-branches-tags-or-commits), also across a fork
 * network, and merge_base (#merge-base). Both need `download_code` on every project they
 * read: one the caller cannot see is a 404, as everywhere.
 */
export function createCompareService(deps: { access: Pick<RepositoryAccess, 'open'>; forks: Pick<ForksRepository, 'networkRoot'> }) {
  return {
    /**
     * `to` in project :id, `from` in `fromProjectId` (default :id). Across projects, git reads
     * the other repository's objects in place (git/diff.ts); nothing is fetched or written.
     */
    async compare(actor: Actor, idOrPath: string | number, input: CompareInput): Promise<{ project: Project; comparison: Comparison }> {
      const { project, repoPath } = await deps.access.open(actor, idOrPath, 'download_code');
      let fromRepoPath: string | undefined;
      if (input.fromProjectId !== undefined && input.fromProjectId !== project.id) {
        const from = await deps.access.open(actor, input.fromProjectId, 'download_code');
        const [here, there] = await Promise.all([deps.forks.networkRoot(project.id), deps.forks.networkRoot(from.project.id)]);
        // GitLab's words (API::Repositories), for a project the caller can read outside the network.
        if (here === null || here !== there) throw new ValidationError(`Target project id:${from.project.id} is not a fork of project id:${project.id}`);
        fromRepoPath = from.repoPath;
      }
      const paths = input.paths && input.paths.length > 0 ? input.paths : undefined;
      const limits = paths ? { ...NO_DIFF_LIMITS, maxPatchBytes: DIFF_MAX_PATCH_BYTES } : undefined;
      const comparison = await diff(repoPath, input.from, input.to, { straight: input.straight, fromRepoPath, paths, limits });
      if (!comparison) throw new NotFoundError('Ref');
      return { project, comparison };
    },

    /** The common ancestor of the refs: 400 for fewer than two or unknown refs, 404 when there is none. */
    async mergeBase(actor: Actor, idOrPath: string | number, refs: readonly string[]): Promise<{ project: Project; commit: GitCommit }> {
      const { project, repoPath } = await deps.access.open(actor, idOrPath, 'download_code');
      if (refs.length < 2) throw new ValidationError('Provide at least 2 refs');
      if (refs.length > MERGE_BASE_MAX_REFS) throw new ValidationError(`Provide at most ${MERGE_BASE_MAX_REFS} refs`);
      // A ref git would take for an option names nothing: reported as unknown, never run.
      const valid = refs.filter(isRevision);
      const resolved = new Map(valid.map((ref, i) => [ref, i]));
      const shas = await resolveCommits(repoPath, valid);
      const unknown = refs.filter((ref) => !resolved.has(ref) || !shas[resolved.get(ref)!]);
      if (unknown.length > 0) throw new ValidationError(`Could not find ${unknown.length === 1 ? 'ref' : 'refs'}: ${unknown.join(', ')}`);
      const base = await mergeBaseOfCommits(repoPath, refs.map((ref) => shas[resolved.get(ref)!]!));
      const commit = base ? await getCommit(repoPath, base) : null;
      if (!commit) throw new NotFoundError('Merge Base');
      return { project, commit };
    },
  };
}

export type CompareService = ReturnType<typeof createCompareService>;
