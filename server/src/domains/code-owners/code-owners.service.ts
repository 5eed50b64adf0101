/**
 * Code owners as the rest of Tributary asks for them: the CODEOWNERS file that applies at a
 * commit (parsed and compiled once per project and commit, then cached: evaluating many merge
 * requests into one branch reads git once), the owners of paths resolved to users and groups
 * (one query per kind of reference), and the code owner approval rules of a merge request.
 *
 * Owners resolve as GitLab resolves them: `@name` is a user by username, else a group by its
 * full path (whose direct members may approve); an email is the user with that email; a role
 * (`@@developer`, `@@maintainer`, `@@owner`) is the direct project members with exactly that
 * role (GitLab: roles are not inclusive of higher roles).
 */
import { AccessLevel } from '@tributary/contracts';
import { readRefTips } from '../../git/ref-files.js';
import type { Queryable } from '../../platform/db/database.js';
import type { MergeRequest } from '../merge-requests/merge-request.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import { matchesBranchPattern } from '../protected-branches/branch-pattern.js';
import type { CodeOwnersError, CodeOwnersLine, OwnerReference } from './codeowners-file.js';
import { loadCodeOwners } from './codeowners-loader.js';
import { createCodeOwnersMatcher, type CodeOwnersMatcher, type MatchedEntry } from './codeowners-matcher.js';
import { checkOwners, ownerReferences, type OwnerCheckError } from './owner-checks.js';
import { ROLE_ACCESS_LEVELS, type CodeOwnersRepository, type ResolvedGroup, type ResolvedUser } from './code-owners.repository.js';

/** Parsed files kept (per project and commit); a file is immutable at a commit, so entries never go stale. */
const MAX_CACHED_FILES = 256;

export interface CodeOwnersAtCommit {
  commit: string;
  path: string;
  errors: CodeOwnersError[];
  /** the lines naming owners, for the owner checks of the file view */
  ownerLines: CodeOwnersLine[];
  matcher: CodeOwnersMatcher;
}

export interface ResolvedOwners {
  users: ResolvedUser[];
  groups: ResolvedGroup[];
}

/** One code owner approval rule: an entry owning changed paths, with its owners resolved. */
export interface ResolvedCodeOwnerRule {
  name: string;
  section: string;
  /** the section's count, 0 for an optional section */
  approvalsRequired: number;
  users: ResolvedUser[];
  groups: ResolvedGroup[];
  paths: string[];
}

export function createCodeOwnersService(deps: { repository: CodeOwnersRepository; storage: Pick<RepositoryStorage, 'pathFor'> }) {
  const { repository } = deps;
  const files = new Map<string, Promise<CodeOwnersAtCommit | null>>();

  /** The file at a commit, parsed and compiled; cached per (project, commit). */
  function atCommit(projectId: number, commit: string): Promise<CodeOwnersAtCommit | null> {
    const key = `${projectId}:${commit}`;
    const cached = files.get(key);
    if (cached) {
      // most recently used last, so the oldest is evicted first
      files.delete(key);
      files.set(key, cached);
      return cached;
    }
    const loading = loadCodeOwners(deps.storage.pathFor(projectId), commit).then((loaded) =>
      loaded ? { commit, path: loaded.path, errors: loaded.file.errors, ownerLines: loaded.file.ownerLines, matcher: createCodeOwnersMatcher(loaded.file) } : null,
    );
    loading.catch(() => files.delete(key));
    if (files.size >= MAX_CACHED_FILES) files.delete(files.keys().next().value!);
    files.set(key, loading);
    return loading;
  }

  /**
   * The file at a branch's tip (null when the branch or the file does not exist). The tip is
   * read from the ref files, without starting git; the file itself comes from the cache.
   */
  async function atBranch(projectId: number, branch: string): Promise<CodeOwnersAtCommit | null> {
    const ref = `refs/heads/${branch}`;
    const tip = await readRefTips(deps.storage.pathFor(projectId), [ref]).then(
      (tips) => tips.get(ref),
      () => undefined,
    );
    return tip ? atCommit(projectId, tip) : null;
  }

  /**
   * Resolves every reference of `lists` with one query per kind, and answers each list's owners.
   */
  async function resolve(projectId: number, lists: ReadonlyArray<readonly OwnerReference[]>, tx?: Queryable): Promise<ResolvedOwners[]> {
    const names = new Set<string>();
    const emails = new Set<string>();
    const roles = new Set<number>();
    for (const owners of lists) {
      for (const owner of owners) {
        if (owner.kind === 'name') names.add(owner.name.toLowerCase());
        else if (owner.kind === 'email') emails.add(owner.email.toLowerCase());
        else roles.add(ROLE_ACCESS_LEVELS[owner.role]);
      }
    }
    const [users, byEmail, members] = await Promise.all([
      repository.usersByUsernames([...names], tx),
      repository.usersByEmails([...emails], tx),
      repository.directMembersWithLevels(projectId, [...roles], tx),
    ]);
    const userByName = new Map(users.map((user) => [user.username.toLowerCase(), user]));
    // a name that is no user may be a group's full path
    const groupNames = [...names].filter((name) => !userByName.has(name));
    const groups = await repository.groupsByFullPaths(groupNames, tx);
    const groupByPath = new Map(groups.map((group) => [group.full_path.toLowerCase(), group]));
    const userByEmail = new Map(byEmail.map((user) => [user.email.toLowerCase(), user]));

    return lists.map((owners) => {
      const resolvedUsers = new Map<number, ResolvedUser>();
      const resolvedGroups = new Map<number, ResolvedGroup>();
      for (const owner of owners) {
        if (owner.kind === 'name') {
          const user = userByName.get(owner.name.toLowerCase());
          if (user) resolvedUsers.set(user.id, user);
          const group = user ? undefined : groupByPath.get(owner.name.toLowerCase());
          if (group) resolvedGroups.set(group.id, group);
        } else if (owner.kind === 'email') {
          const user = userByEmail.get(owner.email.toLowerCase());
          if (user) resolvedUsers.set(user.id, user);
        } else {
          const level = ROLE_ACCESS_LEVELS[owner.role];
          for (const member of members) if (member.access_level === level) resolvedUsers.set(member.id, { id: member.id, username: member.username, name: member.name, email: member.email });
        }
      }
      return { users: [...resolvedUsers.values()], groups: [...resolvedGroups.values()] };
    });
  }

  /** GitLab's rule per matched entry: the pattern as name, its section, the section's count (0 when optional). */
  async function rulesOf(projectId: number, matched: readonly MatchedEntry[], tx?: Queryable): Promise<ResolvedCodeOwnerRule[]> {
    const owners = await resolve(projectId, matched.map(({ entry }) => entry.owners), tx);
    return matched.map(({ section, entry, paths }, index) => ({
      name: entry.pattern,
      section: section.name,
      approvalsRequired: section.optional ? 0 : section.approvalsRequired,
      users: owners[index]!.users,
      groups: owners[index]!.groups,
      paths,
    }));
  }

  return {
    atCommit,
    atBranch,
    resolve,

    /**
     * The code owner rules of a merge request: the target branch's CODEOWNERS (GitLab reads the
     * target's file) matched against the paths its latest version changed.
     */
    async mergeRequestRules(mergeRequest: Pick<MergeRequest, 'id' | 'target_project_id' | 'target_branch'>, tx?: Queryable): Promise<ResolvedCodeOwnerRule[]> {
      const file = await atBranch(mergeRequest.target_project_id, mergeRequest.target_branch);
      if (!file) return [];
      const paths = await repository.latestChangedPaths(mergeRequest.id, tx);
      if (paths.length === 0) return [];
      return rulesOf(mergeRequest.target_project_id, file.matcher.match(paths), tx);
    },

    /** The rules owning `paths` under the target branch's CODEOWNERS. */
    async rulesForPaths(projectId: number, branch: string, paths: readonly string[], tx?: Queryable): Promise<ResolvedCodeOwnerRule[]> {
      const file = await atBranch(projectId, branch);
      if (!file || paths.length === 0) return [];
      return rulesOf(projectId, file.matcher.match(paths), tx);
    },

    /** Does the project protect `branch` with "code owner approval required"? (any matching protection) */
    async approvalRequired(projectId: number, branch: string, tx?: Queryable): Promise<boolean> {
      const patterns = await repository.codeOwnerApprovalBranches(projectId, tx);
      return patterns.some((pattern) => matchesBranchPattern(pattern, branch));
    },

    /**
     * GitLab's owner checks of a file (`owner-checks.ts`): none while the file has syntax
     * errors (GitLab checks owners only then), else two queries for all its references.
     */
    async checkOwners(project: { id: number; traversalIds: number[]; namespaceOwnerId: number | null }, file: CodeOwnersAtCommit): Promise<OwnerCheckError[]> {
      if (file.errors.length > 0 || file.ownerLines.length === 0) return [];
      const { names, emails } = ownerReferences(file.ownerLines);
      const facts = await repository.ownerFacts(project, names, emails);
      return checkOwners(file.ownerLines, {
        userLevelByName: new Map(facts.users.map((user) => [user.username.toLowerCase(), user.level])),
        userLevelByEmail: new Map(facts.users.map((user) => [user.email.toLowerCase(), user.level])),
        groupByPath: new Map(facts.groups.map((group) => [group.full_path.toLowerCase(), { reachable: group.reachable, hasEligibleMember: group.has_eligible_member }])),
        approverLevel: AccessLevel.Developer,
      });
    },

    /**
     * The owners of one path at a commit, and the file's errors when the path is the file itself
     * (the blob page's "Code owners" line and the CODEOWNERS file's error list).
     */
    async ownersOfPath(projectId: number, commit: string, path: string): Promise<{ file: CodeOwnersAtCommit | null; owners: ResolvedOwners }> {
      const file = await atCommit(projectId, commit);
      if (!file) return { file: null, owners: { users: [], groups: [] } };
      const owning = file.matcher.entriesFor(path);
      const [owners] = await resolve(projectId, [owning.flatMap(({ entry }) => entry.owners)]);
      return { file, owners: owners! };
    },
  };
}

export type CodeOwnersService = ReturnType<typeof createCodeOwnersService>;
