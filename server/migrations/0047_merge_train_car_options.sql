-- A merge train car keeps the merge options chosen when it was added (GitLab keeps them in the
-- merge request's merge_params while its merge_train auto-merge is set): the merge and squash
-- commit messages its train commit is built with, and whether the source branch is removed once
-- it merged. Null: the merge request's or project's default.
ALTER TABLE merge_trains ADD COLUMN merge_commit_message text;
ALTER TABLE merge_trains ADD COLUMN squash_commit_message text;
ALTER TABLE merge_trains ADD COLUMN should_remove_source_branch boolean;
