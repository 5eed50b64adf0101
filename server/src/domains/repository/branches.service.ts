import { t } from '@tributary/contracts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../platform/errors.js';
import type { PushRulesService } from '../push-rules/push-rules.service.js';
import type { Actor } from '../../auth/actor.js';
import type { GitCommit } from '../../git/commit-format.js';
import { RefConflictError } from '../../git/errors.js';
import { branchRef, isValidFullRefName, validateBranchName } from '../../git/ref-names.js';
import { createRef, deleteRef } from '../../git/ref-updates.js';
import { isAncestor, listRefNames, listRefs, mergedRefs, readRef, resolveCommit, type GitRef, type RefSort } from '../../git/refs.js';
import type { Project } from '../projects/project.js';
import type { ProtectedBranchesRepository } from '../protected-branches/protected-branches.repository.js';
import type { ProtectedBranch } from '../protected-branches/protected-branch.js';
import type { PusherFacts } from '../protected-branches/push-rules.js';
import type { PushesService } from '../pushes/pushes.service.js';
import { ZERO_SHA } from '../pushes/push.js';
import { BRANCH_MESSAGES, branchCreationRefusal, branchDeletionRefusal, canPushToBranch, isMerged, protectionFlags, searchByName } from './branch-rules.js';
import type { RepositoryAccess } from './repository-access.js';
import type { ProtectedTagsRepository } from '../protected-tags/protected-tags.repository.js';
import { tagProtectionsFor } from '../protected-tags/tag-rules.js';

const HEADS = 'refs/heads/';
const TAGS = 'refs/tags/';

export interface BranchView {
  name: string;
  commit: GitCommit;
  merged: boolean;
  protected: boolean;
  developers_can_push: boolean;
  developers_can_merge: boolean;
  can_push: boolean;
  default: boolean;
}

export interface TagView {
  name: string;
  /** The tag object for annotated tags, the commit for lightweight ones. */
  target: string;
  message: string | null;
  commit: GitCommit | null;
  created_at: Date | null;
  /** a protected tag name or pattern matches it */
  protected?: boolean;
}

export type BranchSort = 'name_asc' | 'updated_asc' | 'updated_desc';
export type TagOrder = 'name' | 'updated' | 'version';

const BRANCH_SORTS: Record<BranchSort, RefSort> = { name_asc: 'refname', updated_asc: 'committerdate', updated_desc: '-committerdate' };
const TAG_SORTS: Record<TagOrder, [RefSort, RefSort]> = {
  name: ['refname', '-refname'],
  updated: ['creatordate', '-creatordate'],
  version: ['version:refname', '-version:refname'],
};

export interface ListOptions {
  search?: string;
  limit: number;
  offset: number;
}

interface BranchFacts {
  project: Project;
  protections: ProtectedBranch[];
  defaultSha: string | null;
  pusher: PusherFacts | null;
}

export function createBranchesService(deps: {
  access: RepositoryAccess;
  protectedBranches: Pick<ProtectedBranchesRepository, 'listForProject'>;
  protectedTags: Pick<ProtectedTagsRepository, 'listForProject'>;
  pushes: Pick<PushesService, 'postReceive'>;
  /** commits to the default branch of an empty repository (GitLab creates it before the asked branch) */
  createDefaultBranch?: (actor: Actor, projectId: number, branch: string) => Promise<void>;
  /** the project's push rule (its branch name pattern) */
  pushRules?: Pick<PushRulesService, 'check'>;
}) {
  const { access } = deps;

  async function facts(actor: Actor, project: Project, repoPath: string): Promise<BranchFacts> {
    const [protections, defaultRef, pusher] = await Promise.all([
      deps.protectedBranches.listForProject(project.id),
      readRef(repoPath, branchRef(project.default_branch)),
      access.pusherIfAllowed(actor, project),
    ]);
    return { project, protections, defaultSha: defaultRef?.commit?.id ?? null, pusher };
  }

  function view(name: string, commit: GitCommit, f: BranchFacts, reachableFromDefault: boolean): BranchView {
    return {
      name,
      commit,
      merged: isMerged(commit.id, f.defaultSha, reachableFromDefault),
      ...protectionFlags(name, f.protections),
      can_push: canPushToBranch(f.pusher, name, f.protections),
      default: name === f.project.default_branch,
    };
  }

  /** An existing branch by short name, or null; names git could not hold are simply absent. */
  async function findBranch(repoPath: string, name: string): Promise<(GitRef & { commit: GitCommit }) | null> {
    if (!isValidFullRefName(branchRef(name))) return null;
    const ref = await readRef(repoPath, branchRef(name));
    return ref?.commit ? (ref as GitRef & { commit: GitCommit }) : null;
  }

  async function show(actor: Actor, idOrPath: string | number, name: string): Promise<{ project: Project; branch: BranchView }> {
    const { project, repoPath } = await access.open(actor, idOrPath, 'download_code');
    const ref = await findBranch(repoPath, name);
    if (!ref) throw new NotFoundError('Branch');
    const f = await facts(actor, project, repoPath);
    const reachable = f.defaultSha !== null && (await isAncestor(repoPath, ref.commit.id, f.defaultSha));
    return { project, branch: view(name, ref.commit, f, reachable) };
  }

  return {
    show,

    async list(actor: Actor, idOrPath: string | number, options: ListOptions & { sort?: BranchSort }) {
      const { project, repoPath } = await access.open(actor, idOrPath, 'download_code');
      const refs = await listRefs(repoPath, HEADS, { sort: BRANCH_SORTS[options.sort ?? 'name_asc'] });
      const named = refs.filter((ref) => ref.commit).map((ref) => ({ name: ref.ref.slice(HEADS.length), ref }));
      const matching = searchByName(named, options.search);
      const page = matching.slice(options.offset, options.offset + options.limit);
      const f = await facts(actor, project, repoPath);
      const merged = f.defaultSha && page.length > 0 ? await mergedRefs(repoPath, HEADS, f.defaultSha) : new Set<string>();
      return {
        project,
        total: matching.length,
        branches: page.map(({ name, ref }) => view(name, ref.commit!, f, merged.has(ref.ref))),
      };
    },

    async create(actor: Actor, idOrPath: string | number, input: { branch: string; ref: string }) {
      const { project, repoPath } = await access.open(actor, idOrPath, 'push_code');
      if (validateBranchName(input.branch)) throw new ValidationError(t(BRANCH_MESSAGES.invalidName));
      // GitLab: a repository with no branch first gets its default branch, from which the new one can start.
      if (deps.createDefaultBranch && (await listRefNames(repoPath, HEADS)).length === 0) {
        await deps.createDefaultBranch(actor, project.id, project.default_branch);
      }
      if (await findBranch(repoPath, input.branch)) throw new ValidationError(t(BRANCH_MESSAGES.exists));
      const sha = await resolveCommit(repoPath, input.ref);
      if (!sha) throw new ValidationError(t(BRANCH_MESSAGES.invalidRef, { ref: input.ref }));
      const [pusher, protections] = await Promise.all([access.pusher(actor, project), deps.protectedBranches.listForProject(project.id)]);
      const refusal = branchCreationRefusal(pusher, input.branch, protections);
      if (refusal) throw new ForbiddenError(refusal);
      const ref = branchRef(input.branch);
      // The push rule's branch name pattern (GitLab checks API branches too; a 400 with its message).
      const ruleRefusal = await deps.pushRules?.check(actor, project, [{ ref, oldSha: ZERO_SHA, newSha: sha }], { via: 'web' });
      if (ruleRefusal) throw new ValidationError(ruleRefusal);
      try {
        await createRef(repoPath, ref, sha);
      } catch (error) {
        if (error instanceof RefConflictError && error.code === 'ref-exists') throw new ValidationError(t(BRANCH_MESSAGES.exists));
        if (error instanceof RefConflictError && error.code === 'ref-dir-conflict') {
          throw new ValidationError(t(BRANCH_MESSAGES.hierarchyConflict, { branch: input.branch }));
        }
        throw error;
      }
      await deps.pushes.postReceive(pusher.userId, project.id, [{ ref, oldSha: ZERO_SHA, newSha: sha }]);
      return show(actor, project.id, input.branch);
    },

    async remove(actor: Actor, idOrPath: string | number, name: string): Promise<void> {
      const { project, repoPath } = await access.open(actor, idOrPath, 'push_code');
      const ref = await findBranch(repoPath, name);
      if (!ref) throw new NotFoundError('Branch');
      const [pusher, protections] = await Promise.all([access.pusher(actor, project), deps.protectedBranches.listForProject(project.id)]);
      const refusal = branchDeletionRefusal(pusher, name, project.default_branch, protections);
      if (refusal?.kind === 'default') throw new ValidationError(refusal.message);
      if (refusal) throw new ForbiddenError(refusal.message);
      // Compare-and-swap: a branch that moved since we read it is not deleted (409).
      await deleteRef(repoPath, ref.ref, ref.target);
      await deps.pushes.postReceive(pusher.userId, project.id, [{ ref: ref.ref, oldSha: ref.target, newSha: ZERO_SHA }]);
    },

    async listTags(actor: Actor, idOrPath: string | number, options: ListOptions & { orderBy?: TagOrder; sort?: 'asc' | 'desc' }) {
      const { project, repoPath } = await access.open(actor, idOrPath, 'download_code');
      const [ascending, descending] = TAG_SORTS[options.orderBy ?? 'updated'];
      const [refs, tagProtections] = await Promise.all([
        listRefs(repoPath, TAGS, { sort: options.sort === 'asc' ? ascending : descending }),
        deps.protectedTags.listForProject(project.id),
      ]);
      const named = refs.map((ref) => ({ name: ref.ref.slice(TAGS.length), ref }));
      const matching = searchByName(named, options.search);
      const tags: TagView[] = matching.slice(options.offset, options.offset + options.limit).map(({ name, ref }) => ({
        name,
        target: ref.target,
        message: ref.tagMessage,
        commit: ref.commit,
        created_at: ref.taggedAt,
        protected: tagProtectionsFor(name, tagProtections).length > 0,
      }));
      return { project, total: matching.length, tags };
    },
  };
}

export type BranchesService = ReturnType<typeof createBranchesService>;
