-- A merged merge request's widget hears its post-merge pipeline move (the target branch's pipeline
-- at the commit it landed as): each job transition looks the merged requests up by that commit.
-- Merged requests are found by their merge or squash commit, and fast-forwarded ones by the head of
-- their latest version; these indexes keep each lookup to the rows of that one commit.
CREATE INDEX merge_requests_merged_commit ON merge_requests (target_project_id, merge_commit_sha) WHERE state = 'merged';
CREATE INDEX merge_requests_merged_squash_commit ON merge_requests (target_project_id, squash_commit_sha) WHERE state = 'merged' AND merge_commit_sha IS NULL;
CREATE INDEX merge_request_diffs_head_commit ON merge_request_diffs (head_commit_sha);
