-- Merge trains (GitLab's merge_trains table): one row per car, queued per target branch of a
-- project, in id order. A car carries one head of its merge request (source_sha); its train
-- commit (train_sha, at refs/merge-requests/:iid/train) is that head merged onto base_sha, the
-- train commit of the car ahead or the target branch tip for the front car. Statuses as GitLab:
-- idle, stale, fresh (a pipeline on the current train commit), merging, merged, skip_merged (an
-- entry recording a merge immediately that skipped the train). A car removed from the train is
-- deleted, as GitLab destroys it.
CREATE TABLE merge_trains (
  id bigserial PRIMARY KEY,
  merge_request_id bigint NOT NULL REFERENCES merge_requests (id) ON DELETE CASCADE,
  user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  pipeline_id bigint REFERENCES ci_pipelines (id) ON DELETE SET NULL,
  target_project_id bigint NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  target_branch text NOT NULL,
  status text NOT NULL DEFAULT 'idle' CHECK (status IN ('idle', 'stale', 'fresh', 'merging', 'merged', 'skip_merged')),
  squash boolean NOT NULL DEFAULT false,
  source_sha text,
  base_sha text,
  train_sha text,
  merge_commit_sha text,
  squash_commit_sha text,
  merged_at timestamptz,
  duration integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- A merge request is on one train at most once at a time.
CREATE UNIQUE INDEX merge_trains_one_active_car ON merge_trains (merge_request_id) WHERE status IN ('idle', 'stale', 'fresh', 'merging');
CREATE INDEX merge_trains_train ON merge_trains (target_project_id, target_branch, id);
CREATE INDEX merge_trains_pipeline ON merge_trains (pipeline_id) WHERE pipeline_id IS NOT NULL;

-- GitLab's merge_trains_enabled (effective only with merge_pipelines_enabled) and
-- merge_trains_skip_train_allowed project settings.
ALTER TABLE projects ADD COLUMN merge_trains_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE projects ADD COLUMN merge_trains_skip_train_allowed boolean NOT NULL DEFAULT false;

-- Merge train system notes ("started a merge train", "removed this merge request from the merge
-- train because …") are merge request events.
ALTER TABLE merge_request_events DROP CONSTRAINT merge_request_events_action_check;
ALTER TABLE merge_request_events ADD CONSTRAINT merge_request_events_action_check
  CHECK (action IN ('opened', 'closed', 'reopened', 'merged', 'retargeted', 'draft', 'ready', 'title', 'description', 'labels', 'milestone', 'assignees', 'reviewers',
                    'approved', 'unapproved', 'approvals_reset', 'approvals_kept', 'requested_changes', 'reviewed',
                    'auto_merge_enabled', 'auto_merge_canceled', 'auto_merge_aborted', 'merge_train'));
