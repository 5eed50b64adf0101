import type { FeatureField, Visibility } from '@tributary/contracts';

/** The project's feature levels (GitLab's numbers: 0 disabled, 10 private, 20 enabled, 30 public). */
export type ProjectFeatureLevels = Record<FeatureField, number>;

export interface Project extends ProjectFeatureLevels {
  id: number;
  namespace_id: number;
  name: string;
  path: string;
  full_path: string;
  full_name: string;
  description: string;
  visibility: Visibility;
  default_branch: string;
  creator_id: number | null;
  forked_from_id: number | null;
  archived: boolean;
  empty_repo: boolean;
  pending_delete: boolean;
  merge_method: 'merge' | 'rebase_merge' | 'ff';
  squash_option: 'never' | 'always' | 'default_on' | 'default_off';
  only_allow_merge_if_pipeline_succeeds: boolean;
  /** with only_allow_merge_if_pipeline_succeeds: a skipped pipeline counts as a successful one (CI_MUST_PASS) */
  allow_merge_on_skipped_pipeline: boolean;
  /** merge request pipelines run on the trial merge commit (merged results pipelines) */
  merge_pipelines_enabled: boolean;
  /** merge requests join a merge train per target branch; effective only with merged results pipelines (domains/merge-trains/) */
  merge_trains_enabled: boolean;
  /** "Merge immediately" may skip the train instead of restarting it */
  merge_trains_skip_train_allowed: boolean;
  only_allow_merge_if_all_discussions_are_resolved: boolean;
  /** a push that outdates a diff thread resolves it (GitLab's setting; domains/notes/outdated-discussions.service.ts) */
  resolve_outdated_diff_discussions: boolean;
  remove_source_branch_after_merge: boolean;
  /** null: GitLab's default messages (merge commit, squash commit) */
  merge_commit_template: string | null;
  squash_commit_template: string | null;
  /** the TITLE_REGEX merge check: an RE2 pattern and the sentence shown with it (both or neither) */
  merge_request_title_regex: string | null;
  merge_request_title_regex_description: string | null;
  /** the avatar's file name (its bytes are in project_avatars); null without one */
  avatar_filename: string | null;
  /** with builds_access_level: whether non-members see pipelines and jobs (GitLab's public_builds) */
  public_builds: boolean;
  created_at: Date;
  updated_at: Date;
  last_activity_at: Date;
  /** from the namespace, for permission checks without another query */
  namespace_kind: 'user' | 'group';
  namespace_owner_id: number | null;
  namespace_traversal_ids: number[];
  namespace_visibility: Visibility;
  namespace_name: string;
  namespace_path: string;
  namespace_full_path: string;
  namespace_parent_id: number | null;
}

/** Settings a Maintainer may change through PUT /projects/:id. */
export const EDITABLE_SETTINGS = [
  'merge_method',
  'squash_option',
  'only_allow_merge_if_pipeline_succeeds',
  'allow_merge_on_skipped_pipeline',
  'merge_pipelines_enabled',
  'merge_trains_enabled',
  'merge_trains_skip_train_allowed',
  'only_allow_merge_if_all_discussions_are_resolved',
  'resolve_outdated_diff_discussions',
  'remove_source_branch_after_merge',
  'merge_commit_template',
  'squash_commit_template',
  'merge_request_title_regex',
  'merge_request_title_regex_description',
] as const;
