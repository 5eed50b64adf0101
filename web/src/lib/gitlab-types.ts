import type { FeatureLevelName } from '@tributary/contracts/project-features';
/**
 * The GitLab REST API v4 entities the web app reads, trimmed to the fields it uses.
 * Shapes follow GitLab's documentation (doc/api/*.md); optional fields are ones
 * GitLab omits in some contexts.
 */
export type Visibility = 'private' | 'internal' | 'public';

export interface UserBasic {
  id: number;
  username: string;
  name: string;
  state: string;
  avatar_url: string | null;
  web_url: string;
}

export interface User extends UserBasic {
  email?: string;
  created_at?: string;
  is_admin?: boolean;
  can_create_group?: boolean;
  can_create_project?: boolean;
  last_sign_in_at?: string | null;
  /** GitLab's date (YYYY-MM-DD) of the latest activity: a sign-in updates it */
  last_activity_on?: string | null;
}

export interface Session {
  user: User;
  csrf_token: string;
}

export interface NamespaceSummary {
  id: number;
  name: string;
  path: string;
  kind: 'user' | 'group';
  full_path: string;
  parent_id: number | null;
  avatar_url?: string | null;
  web_url?: string;
}

export interface ProjectAccess {
  access_level: number;
  notification_level?: number;
}

export interface Project {
  id: number;
  name: string;
  path: string;
  name_with_namespace: string;
  path_with_namespace: string;
  description: string | null;
  default_branch: string | null;
  visibility: Visibility;
  http_url_to_repo: string;
  ssh_url_to_repo?: string;
  web_url: string;
  readme_url?: string | null;
  avatar_url?: string | null;
  empty_repo?: boolean;
  archived?: boolean;
  created_at: string;
  last_activity_at: string;
  namespace: NamespaceSummary;
  permissions?: {
    project_access: ProjectAccess | null;
    group_access: ProjectAccess | null;
  };
  forked_from_project?: Pick<Project, 'id' | 'name' | 'path' | 'path_with_namespace' | 'name_with_namespace' | 'default_branch' | 'web_url'> | null;
  remove_source_branch_after_merge?: boolean;
  /** merged results pipelines; merge trains run only with them */
  merge_pipelines_enabled?: boolean;
  merge_trains_enabled?: boolean;
  squash_option?: 'never' | 'always' | 'default_on' | 'default_off';
  forks_count?: number;
  /** the project's features (`repository_access_level: 'enabled'`, …) and public_jobs */
  [featureField: `${string}_access_level`]: FeatureLevelName | undefined;
  public_jobs?: boolean;
}

export interface Group {
  id: number;
  name: string;
  path: string;
  full_name: string;
  full_path: string;
  description: string | null;
  visibility: Visibility;
  parent_id: number | null;
  web_url: string;
  avatar_url: string | null;
  created_at?: string;
}

export interface CommitSummary {
  id: string;
  short_id: string;
  title: string;
  message: string;
  author_name: string;
  author_email: string;
  authored_date: string;
  committer_name: string;
  committer_email: string;
  committed_date: string;
  created_at: string;
  parent_ids: string[];
  web_url?: string;
}

export interface Branch {
  name: string;
  merged: boolean;
  protected: boolean;
  default: boolean;
  developers_can_push: boolean;
  developers_can_merge: boolean;
  can_push: boolean;
  web_url?: string;
  commit: CommitSummary;
}

export interface Tag {
  name: string;
  message: string | null;
  target: string;
  protected?: boolean;
  commit: CommitSummary;
}

export interface TreeEntry {
  id: string;
  name: string;
  type: 'tree' | 'blob' | 'commit';
  path: string;
  mode: string;
}

export interface RepositoryFile {
  file_name: string;
  file_path: string;
  size: number;
  encoding: 'base64' | 'text';
  content: string;
  content_sha256?: string;
  ref: string;
  blob_id: string;
  commit_id: string;
  last_commit_id: string;
}

export interface CommitDiff {
  old_path: string;
  new_path: string;
  a_mode: string;
  b_mode: string;
  diff: string;
  new_file: boolean;
  renamed_file: boolean;
  deleted_file: boolean;
  too_large?: boolean;
  collapsed?: boolean;
  generated_file?: boolean;
  /** Not in GitLab's Entities::Diff; read when a server adds them (counts of collapsed files). */
  added_lines?: number;
  removed_lines?: number;
}

export interface Member extends UserBasic {
  access_level: number;
  expires_at: string | null;
  created_at?: string;
}

export interface PersonalAccessToken {
  id: number;
  name: string;
  revoked: boolean;
  created_at: string;
  scopes: string[];
  user_id: number;
  last_used_at: string | null;
  active: boolean;
  expires_at: string | null;
  /** Present only in the response that created the token. */
  token?: string;
}

export type MergeRequestState = 'opened' | 'closed' | 'merged' | 'locked';

/** Entities::ProjectLabel / GroupLabel, doc/api/labels.md. */
export interface Label {
  id: number;
  name: string;
  color: string;
  text_color: string;
  description: string | null;
  priority?: number | null;
  is_project_label?: boolean;
  open_merge_requests_count?: number;
  /** whether the caller is subscribed to it (within the project on a project's labels) */
  subscribed?: boolean;
}

/** Entities::Milestone, doc/api/milestones.md. */
export interface Milestone {
  id: number;
  iid: number;
  project_id?: number;
  group_id?: number;
  title: string;
  description: string | null;
  state: 'active' | 'closed';
  start_date: string | null;
  due_date: string | null;
  expired: boolean;
  web_url: string;
}

/** GitLab's Entities::MergeRequestBasic (lists), doc/api/merge_requests.md. */
export interface MergeRequestBasic {
  id: number;
  iid: number;
  project_id: number;
  title: string;
  description: string | null;
  state: MergeRequestState;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  closed_at: string | null;
  merged_by: UserBasic | null;
  merge_user: UserBasic | null;
  closed_by: UserBasic | null;
  target_branch: string;
  source_branch: string;
  author: UserBasic | null;
  assignees: UserBasic[];
  reviewers: UserBasic[];
  source_project_id: number | null;
  target_project_id: number;
  draft: boolean;
  /** label titles, or objects with `with_labels_details=true` (the lists ask for those) */
  labels?: Array<string | Label>;
  milestone?: Milestone | null;
  detailed_merge_status?: string;
  sha: string | null;
  merge_commit_sha: string | null;
  squash_commit_sha?: string | null;
  should_remove_source_branch: boolean | null;
  force_remove_source_branch: boolean | null;
  allow_collaboration?: boolean;
  squash: boolean;
  squash_on_merge?: boolean;
  user_notes_count?: number;
  references: { short: string; relative: string; full: string };
  web_url: string;
  has_conflicts?: boolean;
}

/** Entities::MergeRequest (single merge request, create, update). */
export interface MergeRequest extends MergeRequestBasic {
  changes_count: string | null;
  diff_refs: { base_sha: string | null; head_sha: string; start_sha: string } | null;
  merge_error: string | null;
  user?: { can_merge: boolean };
  diverged_commits_count?: number;
  first_contribution?: boolean;
}

/** Entities::Compare (GET /projects/:id/repository/compare). */
export interface Comparison {
  commit: CommitSummary | null;
  commits: CommitSummary[];
  diffs: CommitDiff[];
  compare_timeout: boolean;
  compare_same_ref: boolean;
  web_url?: string;
}

/** GitLab's event entity, as GET /projects/:id/events?action=pushed returns it. */
export interface PushEvent {
  id: number;
  project_id: number;
  action_name: 'pushed new' | 'pushed to' | 'deleted';
  author_id: number;
  created_at: string;
  push_data: {
    action: 'created' | 'pushed' | 'removed';
    ref_type: 'branch' | 'tag';
    ref: string;
    commit_from: string | null;
    commit_to: string | null;
  };
}
