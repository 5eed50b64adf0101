-- Changing assignees or reviewers is a merge request event too (from_value and to_value: the
-- usernames before and after, space-separated), so that the system note projection writes
-- "assigned to @x" and "requested review from @x" for it, as GitLab does.
ALTER TABLE merge_request_events DROP CONSTRAINT merge_request_events_action_check;
ALTER TABLE merge_request_events ADD CONSTRAINT merge_request_events_action_check
  CHECK (action IN ('opened', 'closed', 'reopened', 'merged', 'retargeted', 'draft', 'ready', 'title', 'description', 'labels', 'milestone', 'assignees', 'reviewers'));
