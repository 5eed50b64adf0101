-- Auto-merge: a merge request set to merge itself once its checks pass (GitLab's
-- auto_merge_enabled, auto_merge_strategy, merge_user_id and merge_params on the merge request).
-- One row per merge request while auto-merge is set; the row is deleted when it is cancelled,
-- aborted or the request is merged. A merge that failed keeps the row as 'failed' with the
-- error, so the page can show 'auto-merge failed' until someone sets it again or cancels.
CREATE TABLE merge_request_auto_merges (
  merge_request_id bigint PRIMARY KEY REFERENCES merge_requests (id) ON DELETE CASCADE,
  -- who set it: the merge runs as this user, with their rights at the time of the merge
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  strategy text NOT NULL CHECK (strategy IN ('merge_when_checks_pass', 'add_to_merge_train_when_checks_pass', 'merge_train')),
  state text NOT NULL DEFAULT 'enabled' CHECK (state IN ('enabled', 'failed')),
  -- the source head it was set for; a push by anyone else aborts it
  sha text NOT NULL,
  -- the target branch it was set for; retargeting aborts it
  target_branch text NOT NULL,
  -- the merge options the user chose (null: the request's or project's default)
  squash boolean,
  should_remove_source_branch boolean,
  merge_commit_message text,
  squash_commit_message text,
  failure text,
  -- bumped by every change of the setting: removing it is conditional on the version read
  lock_version integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX merge_request_auto_merges_user_id ON merge_request_auto_merges (user_id);

ALTER TABLE merge_request_events DROP CONSTRAINT merge_request_events_action_check;
ALTER TABLE merge_request_events ADD CONSTRAINT merge_request_events_action_check
  CHECK (action IN ('opened', 'closed', 'reopened', 'merged', 'retargeted', 'draft', 'ready', 'title', 'description', 'labels', 'milestone', 'assignees', 'reviewers',
                    'approved', 'unapproved', 'approvals_reset', 'approvals_kept', 'requested_changes', 'reviewed',
                    'auto_merge_enabled', 'auto_merge_canceled', 'auto_merge_aborted'));

-- The merge widget and the REST entity read the setting: its writes are announced like every
-- table a cached read depends on (migration 0010, platform/db/write-watch.ts).
CREATE TRIGGER merge_request_auto_merges_notify_write AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON merge_request_auto_merges FOR EACH STATEMENT EXECUTE FUNCTION tributary_notify_table_write();
