import { actorFor, type Actor } from '../../auth/actor.js';
import type { Authorizer } from '../../auth/authorizer.js';
import { collapsesOnRead, DIFF_MAX_PATCH_BYTES, diffTrees, diffTreesForPaths, listCommits, MERGE_REQUEST_DIFF_LIMITS, NO_DIFF_LIMITS, rawDiff, type FileDiff, type GitCommit } from '../../git/index.js';
import { NotFoundError } from '../../platform/errors.js';
import type { RepositoryStorage } from '../projects/repository-storage.js';
import type { User } from '../users/user.js';
import type { MergeRequestDiffsRepository } from './merge-request-diffs.repository.js';
import type { DiffFileRow, DiffVersion } from './merge-request.js';
import type { MergeRequestsRepository } from './merge-requests.repository.js';
import type { MergeRequestsService, OpenedMergeRequest } from './merge-requests.service.js';
import { fileKey } from './version-rules.js';

/** Commits listed with a version (GitLab's MergeRequestDiff::COMMITS_SAFE_SIZE is larger; pages use /commits). */
export const VERSION_COMMITS_LIMIT = 1000;

type Ref = [actor: Actor, idOrPath: string | number, iid: number];

/** A stored file row as a diff without text (collapsed, too large, or not asked for). */
function fromRow(row: DiffFileRow): FileDiff {
  return {
    old_path: row.old_path,
    new_path: row.new_path,
    a_mode: row.a_mode,
    b_mode: row.b_mode,
    new_file: row.new_file,
    renamed_file: row.renamed_file,
    deleted_file: row.deleted_file,
    generated_file: false,
    diff: '',
    too_large: row.too_large,
    collapsed: row.collapsed,
    binary: row.binary,
    old_id: row.old_blob_id,
    new_id: row.new_blob_id,
    added_lines: row.added_lines,
    removed_lines: row.removed_lines,
  };
}

/**
 * What a merge request changes: its commits, diffs, versions and raw patch. Every read goes
 * through MergeRequestsService.open (404 for what the caller may not see), and git
 * regenerates patch text from a version's three SHAs in the target repository.
 */
export function createMergeRequestChanges(deps: {
  service: Pick<MergeRequestsService, 'open'>;
  diffs: Pick<MergeRequestDiffsRepository, 'latest' | 'list' | 'find' | 'files' | 'filesAtPath'>;
  mergeRequests: Pick<MergeRequestsRepository, 'assignees' | 'reviewers' | 'usersByIds'>;
  authorizer: Pick<Authorizer, 'can'>;
  storage: Pick<RepositoryStorage, 'pathFor'>;
}) {
  const repoOf = (opened: OpenedMergeRequest) => deps.storage.pathFor(opened.mergeRequest.target_project_id);
  const fromSha = (version: DiffVersion) => version.base_commit_sha ?? version.start_commit_sha;

  async function withLatest(...[actor, idOrPath, iid]: Ref) {
    const opened = await deps.service.open(actor, idOrPath, iid);
    return { opened, version: await deps.diffs.latest(opened.mergeRequest.id) };
  }

  async function versionCommits(repo: string, version: DiffVersion, page: { limit: number; offset: number }): Promise<GitCommit[]> {
    const result = await listCommits(repo, { ref: `${version.start_commit_sha}..${version.head_commit_sha}`, skip: page.offset, limit: page.limit });
    return result?.commits ?? [];
  }

  /**
   * The patches of some stored files. git diffs only the paths of the files that show text:
   * a collapsed or too large file keeps its empty `diff` (and git never prints its patch),
   * unless `expand` asks for collapsed ones (a file opened on demand; too large stays empty).
   * Should a file not come back under the same key (a name that is not valid UTF-8 was stored
   * with U+FFFD), the whole version is diffed and files are taken by position. Flags and
   * counts come from the stored rows, which were computed over the whole diff, except that a
   * text at the collapse limit collapses here: recording leaves that to the text when the
   * blob sizes could not tell (git/diff-size.ts).
   */
  async function diffsOfRows(repo: string, version: DiffVersion, rows: DiffFileRow[], options: { expand?: boolean } = {}): Promise<FileDiff[]> {
    const showsText = (row: DiffFileRow) => !row.too_large && (options.expand || !row.collapsed);
    const wanted = rows.filter(showsText);
    const found = new Map<DiffFileRow, FileDiff | undefined>();
    if (wanted.length > 0) {
      const paths = [...new Set(wanted.flatMap((row) => [row.old_path, row.new_path]))];
      let matched: Array<FileDiff | undefined> = [];
      if (!paths.some((path) => path.includes('\uFFFD'))) {
        const pool = new Map<string, FileDiff[]>();
        // The stored flags already say which files fit: no limits on this call.
        for (const diff of (await diffTreesForPaths(repo, fromSha(version), version.head_commit_sha, paths, NO_DIFF_LIMITS)).diffs) {
          pool.set(fileKey(diff), [...(pool.get(fileKey(diff)) ?? []), diff]);
        }
        matched = wanted.map((row) => pool.get(fileKey(row))?.shift());
      }
      if (matched.length === 0 || !matched.every(Boolean)) {
        const all = (await diffTrees(repo, fromSha(version), version.head_commit_sha, { ...NO_DIFF_LIMITS, maxPatchBytes: DIFF_MAX_PATCH_BYTES })).diffs;
        matched = wanted.map((row) => all[row.relative_order]);
      }
      wanted.forEach((row, i) => found.set(row, matched[i]));
    }
    return rows.map((row) => {
      const diff = fromRow(row);
      if (!showsText(row)) return diff;
      const text = found.get(row)?.diff ?? '';
      if (!options.expand && collapsesOnRead(text, MERGE_REQUEST_DIFF_LIMITS)) return Object.assign(diff, { collapsed: true });
      return Object.assign(diff, { diff: text, collapsed: false });
    });
  }

  return {
    /** The latest version's commits, newest first, a page of them. */
    async commits(ref: Ref, page: { limit: number; offset: number }) {
      const { opened, version } = await withLatest(...ref);
      const commits = version ? await versionCommits(repoOf(opened), version, page) : [];
      return { opened, commits, total: version?.commits_count ?? 0 };
    },

    /** Every file of the latest version with its patch, as the stored flags allow (the deprecated /changes). */
    async changes(ref: Ref) {
      const { opened, version } = await withLatest(...ref);
      if (!version) return { opened, version: null, diffs: [] as FileDiff[], overflow: false };
      const diffs = await diffsOfRows(repoOf(opened), version, await deps.diffs.files(version.id));
      return { opened, version, diffs, overflow: version.state === 'overflow' };
    },

    /** One page of the latest version's files with their patches (/diffs). */
    async diffs(ref: Ref, page: { limit: number; offset: number }) {
      const { opened, version } = await withLatest(...ref);
      if (!version) return { opened, diffs: [] as FileDiff[], total: 0 };
      const rows = await deps.diffs.files(version.id, page);
      return { opened, diffs: await diffsOfRows(repoOf(opened), version, rows), total: version.files_count };
    },

    async versions(ref: Ref) {
      const opened = await deps.service.open(...ref);
      return { opened, versions: await deps.diffs.list(opened.mergeRequest.id) };
    },

    /** One version with its commits and diffs; old versions stay readable after force pushes. */
    async version(ref: Ref, versionId: number) {
      const opened = await deps.service.open(...ref);
      const version = await deps.diffs.find(opened.mergeRequest.id, versionId);
      if (!version) throw new NotFoundError('Merge Request Diff');
      const repo = repoOf(opened);
      const rows = await deps.diffs.files(version.id);
      const [commits, diffs] = await Promise.all([versionCommits(repo, version, { limit: VERSION_COMMITS_LIMIT, offset: 0 }), diffsOfRows(repo, version, rows)]);
      return { opened, version, commits, diffs };
    },

    /**
     * One file of a version with its patch even when it starts collapsed (both halves of a
     * type change): what a reader opens on demand. A too large file stays without text.
     */
    async fileDiffs(ref: Ref, versionId: number, path: string) {
      const opened = await deps.service.open(...ref);
      const version = await deps.diffs.find(opened.mergeRequest.id, versionId);
      if (!version) throw new NotFoundError('Merge Request Diff');
      const rows = await deps.diffs.filesAtPath(version.id, path);
      if (rows.length === 0) throw new NotFoundError('File');
      return { opened, version, diffs: await diffsOfRows(repoOf(opened), version, rows, { expand: true }) };
    },

    /** The latest version as one unified patch, bytes as git wrote them. */
    async rawDiffs(ref: Ref): Promise<Buffer> {
      const { opened, version } = await withLatest(...ref);
      return version ? rawDiff(repoOf(opened), fromSha(version), version.head_commit_sha) : Buffer.alloc(0);
    },

    /** Author, assignees and reviewers who can read the merge request, each once. */
    async participants(ref: Ref): Promise<{ opened: OpenedMergeRequest; users: User[] }> {
      const opened = await deps.service.open(...ref);
      const { id, author_id: authorId } = opened.mergeRequest;
      const [assignees, reviewers, authors] = await Promise.all([deps.mergeRequests.assignees([id]), deps.mergeRequests.reviewers([id]), deps.mergeRequests.usersByIds(authorId === null ? [] : [authorId])]);
      const seen = new Map<number, User>();
      for (const user of [...authors.values(), ...(assignees.get(id) ?? []), ...(reviewers.get(id) ?? [])]) if (!seen.has(user.id)) seen.set(user.id, user);
      const users: User[] = [];
      for (const user of seen.values()) if (await deps.authorizer.can(actorFor(user, 'session'), 'read_merge_request', { project: opened.project })) users.push(user);
      return { opened, users };
    },
  };
}

export type MergeRequestChanges = ReturnType<typeof createMergeRequestChanges>;
