-- Merge request pipelines (GitLab's ci_pipelines.merge_request_id, source_sha, target_sha) and the
-- project settings that go with them.
--
-- A merge request pipeline belongs to its merge request (deleted with it, as GitLab's foreign key
-- cascades). A detached one runs the source head at refs/merge-requests/:iid/head; a merged
-- results one runs the trial merge commit (sha) of source_sha into target_sha.
ALTER TABLE ci_pipelines ADD COLUMN merge_request_id bigint REFERENCES merge_requests (id) ON DELETE CASCADE;
ALTER TABLE ci_pipelines ADD COLUMN source_sha text;
ALTER TABLE ci_pipelines ADD COLUMN target_sha text;
-- The CI_MERGE_REQUEST_* variables as they were when the pipeline was created: the job receives them.
ALTER TABLE ci_pipelines ADD COLUMN merge_request_variables jsonb NOT NULL DEFAULT '[]'::jsonb;
CREATE INDEX ci_pipelines_merge_request ON ci_pipelines (merge_request_id, id DESC) WHERE merge_request_id IS NOT NULL;

-- "Skipped pipelines are considered successful" (with "Pipelines must succeed") and
-- "Enable merged results pipelines".
ALTER TABLE projects ADD COLUMN allow_merge_on_skipped_pipeline boolean NOT NULL DEFAULT false;
ALTER TABLE projects ADD COLUMN merge_pipelines_enabled boolean NOT NULL DEFAULT false;
