import type { GitCommit } from '../../../git/commit-format.js';
import type { Comparison, FileDiff } from '../../../git/diff.js';
import type { CommitStats } from '../../../domains/repository/commit-stats.js';
import type { UrlBuilder } from './users.js';

/** What commit and branch URLs need from a project. */
export interface ProjectPath {
  id: number;
  full_path: string;
}

export const commitUrl = (urls: UrlBuilder, project: ProjectPath, sha: string) => urls.web(`${project.full_path}/-/commit/${sha}`);

/** GitLab's Entities::Commit. Trailers are not parsed yet: always empty objects. */
export function commitEntity(commit: GitCommit, project: ProjectPath, urls: UrlBuilder) {
  return {
    id: commit.id,
    short_id: commit.short_id,
    created_at: commit.created_at.toISOString(),
    parent_ids: commit.parent_ids,
    title: commit.title,
    message: commit.message,
    author_name: commit.author_name,
    author_email: commit.author_email,
    authored_date: commit.authored_date.toISOString(),
    committer_name: commit.committer_name,
    committer_email: commit.committer_email,
    committed_date: commit.committed_date.toISOString(),
    trailers: {},
    extended_trailers: {},
    web_url: commitUrl(urls, project, commit.id),
  };
}

/** Entities::CommitWithStats (list with `with_stats`). */
export function commitWithStats(commit: GitCommit, stats: CommitStats | null, project: ProjectPath, urls: UrlBuilder) {
  return stats ? { ...commitEntity(commit, project, urls), stats } : commitEntity(commit, project, urls);
}

/** Entities::CommitDetail (single commit, created commit). */
export function commitDetail(commit: GitCommit, stats: CommitStats | null, project: ProjectPath, urls: UrlBuilder) {
  return Object.assign(commitWithStats(commit, stats, project, urls), {
    status: null,
    project_id: project.id,
    last_pipeline: null,
  });
}

/** Entities::Diff. */
export function diffEntity(diff: FileDiff) {
  return {
    diff: diff.diff,
    collapsed: diff.collapsed,
    too_large: diff.too_large,
    new_path: diff.new_path,
    old_path: diff.old_path,
    a_mode: diff.a_mode,
    b_mode: diff.b_mode,
    new_file: diff.new_file,
    renamed_file: diff.renamed_file,
    deleted_file: diff.deleted_file,
    generated_file: diff.generated_file,
  };
}

/** Entities::Compare. `commit` is the newest commit of the comparison, or null. */
export function compareEntity(comparison: Comparison, input: { from: string; to: string }, project: ProjectPath, urls: UrlBuilder) {
  const newest = comparison.commits[comparison.commits.length - 1];
  return {
    commit: newest ? commitEntity(newest, project, urls) : null,
    commits: comparison.commits.map((commit) => commitEntity(commit, project, urls)),
    diffs: comparison.diffs.map(diffEntity),
    compare_timeout: false,
    compare_same_ref: comparison.sameRef,
    web_url: urls.web(`${project.full_path}/-/compare/${encodeURIComponent(input.from)}...${encodeURIComponent(input.to)}`),
  };
}
